// The door's worker sockets: one 0600 socket per served worker generation, opened and closed to match the ledger.
// A sync that arrives while one runs joins it, so one socket is never opened twice; each sync republishes the state.

import { createServer, type Server } from "node:net";
import { doorSocketName } from "../../domain/door.js";
import type { EngineContext } from "../../engine/context.js";
import { publishDoorState, removeSocketIfInode, servedBy, type DoorPaths } from "../../engine/door/serve.js";
import { serveLines, type Reply } from "./lines.js";
import { listenReplacing } from "./listen.js";

/** One served generation and its listening socket (`ino` is the socket file's inode once it listens). */
export interface Served {
  worker: string;
  generation: number;
  projectRoot: string;
  server: Server;
  ino?: number;
}

export interface WorkerSockets {
  readonly served: ReadonlyMap<string, Served>;
  /** Connections open on worker sockets now. */
  connections(): number;
  sync(): Promise<void>;
  close(name: string): void;
}

export interface WorkerSocketsOptions {
  paths: DoorPaths;
  base: EngineContext;
  startedAt: string;
  handle(served: Served, request: Reply): Promise<Reply>;
}

export function createWorkerSockets({ paths, base, startedAt, handle }: WorkerSocketsOptions): WorkerSockets {
  const served = new Map<string, Served>();
  let connections = 0;
  let syncing: Promise<void> | undefined;

  function publish(): void {
    const sockets = [...served.entries()].map(([name, s]) => ({ name, worker: s.worker, generation: s.generation }));
    publishDoorState(paths, { pid: process.pid, startedAt, sockets });
  }

  async function open(name: string, s: { worker: string; generation: number; projectRoot: string }): Promise<void> {
    const server = createServer((conn) => {
      connections++;
      conn.on("close", () => connections--);
      serveLines(conn, (request) => handle(entry, request));
    });
    const entry: Served = { ...s, server };
    served.set(name, entry);
    try {
      entry.ino = await listenReplacing(server, paths.dir, paths.socket(name));
    } catch (error) {
      served.delete(name);
      server.close();
      process.stderr.write(`door: cannot listen for ${name}: ${(error as Error).message}\n`);
    }
  }

  function close(name: string): void {
    const s = served.get(name);
    if (!s) return;
    served.delete(name);
    s.server.close();
    removeSocketIfInode(paths.socket(name), s.ino);
  }

  function sync(): Promise<void> {
    syncing ??= (async () => {
      try {
        const want = new Map(servedBy(base).map((s) => [doorSocketName(s.worker, s.generation), s]));
        for (const name of [...served.keys()]) if (!want.has(name)) close(name);
        await Promise.all([...want].filter(([name]) => !served.has(name)).map(([name, s]) => open(name, s)));
        publish();
      } finally {
        syncing = undefined;
      }
    })();
    return syncing;
  }

  return { served, connections: () => connections, sync, close };
}
