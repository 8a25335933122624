// The door's worker sockets: one 0600 socket per served worker generation, opened and closed to match the ledger.
// A sync that arrives while one runs joins it, so one socket is never opened twice; each sync republishes the state.
// Each socket holds at most its worker's share of connections, all of them together a total: a worker
// over its share has its new connection closed at once, and nobody else's is touched.

import { createServer, type Server } from "node:net";
import { doorSocketName } from "../../domain/door.js";
import type { DoorLimits } from "../../domain/door-limits.js";
import type { EngineContext } from "../../engine/context.js";
import { publishDoorState, removeSocketIfInode, servedBy, type DoorPaths } from "../../engine/door/serve.js";
import { serveLines, type Explain, type Reply } from "./lines.js";
import { listenReplacing } from "./listen.js";

/** One served generation and its listening socket (`ino` is the socket file's inode once it listens). */
export interface Served {
  worker: string;
  generation: number;
  projectRoot: string;
  server: Server;
  ino?: number;
  /** Connections open on this socket now. */
  open: number;
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
  limits: DoorLimits;
  handle(served: Served, request: Reply): Promise<Reply>;
  /** A call's error as the worker reads it (a full disk becomes `disk-full`). */
  explain: Explain;
}

export function createWorkerSockets(options: WorkerSocketsOptions): WorkerSockets {
  const { paths, base, startedAt, limits, handle, explain } = options;
  const lineLimits = { maxLineBytes: limits.callBytes, idleMs: limits.idleSeconds * 1000 };
  const served = new Map<string, Served>();
  let connections = 0;
  let syncing: Promise<void> | undefined;

  /** state.json, for `docket doctor`: a projection the next sync writes again, so a full disk only leaves it stale. */
  function publish(): void {
    const sockets = [...served.entries()].map(([name, s]) => ({ name, worker: s.worker, generation: s.generation }));
    try {
      publishDoorState(paths, { pid: process.pid, startedAt, sockets });
    } catch (error) {
      process.stderr.write(`door: cannot write its state file: ${(error as Error).message}\n`);
    }
  }

  async function open(name: string, s: { worker: string; generation: number; projectRoot: string }): Promise<void> {
    const server = createServer((conn) => {
      if (entry.open >= limits.connectionsPerWorker || connections >= limits.connections) return void conn.destroy();
      connections++;
      entry.open++;
      conn.on("close", () => {
        connections--;
        entry.open--;
      });
      serveLines(conn, (request) => handle(entry, request), lineLimits, explain);
    });
    const entry: Served = { ...s, server, open: 0 };
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
