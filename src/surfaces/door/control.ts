// The door's control socket calls: explain (why a generation is not served, or record a replaced one's exit), sync,
// stop and status. Workers reach it only when their own socket is missing; `docket` and tests reach it directly.

import { doorSocketName } from "../../domain/door.js";
import type { EngineContext } from "../../engine/context.js";
import { explainUnserved, socketInode, type DoorPaths } from "../../engine/door/serve.js";
import { runCall } from "./calls.js";
import type { Reply } from "./lines.js";
import type { WorkerSockets } from "./worker-sockets.js";

export interface ControlOptions {
  paths: DoorPaths;
  base: EngineContext;
  sockets: WorkerSockets;
  startedAt: string;
  shutdown(): Promise<void>;
}

/** The handler of one control request. */
export function createControlCall(o: ControlOptions): (request: Reply) => Promise<Reply> {
  const { sockets } = o;
  const names = () => [...sockets.served.keys()];
  return async (request) => {
    switch (request.call) {
      case "explain":
        return explain(o, request);
      case "sync":
        await sockets.sync();
        return { ok: true, result: { pid: process.pid, sockets: names() } };
      case "stop":
        setImmediate(() => void o.shutdown());
        return { ok: true, result: { pid: process.pid } };
      default:
        return {
          ok: true,
          result: { pid: process.pid, startedAt: o.startedAt, sockets: names(), connections: sockets.connections() },
        };
    }
  };
}

/** Listens again for a generation the ledger serves; for one it does not, says why (or records a replaced exit). */
async function explain({ paths, base, sockets }: ControlOptions, request: Reply): Promise<Reply> {
  const worker = String(request.worker);
  const generation = Number(request.generation);
  const name = doorSocketName(worker, generation);
  const mine = sockets.served.get(name);
  if (mine && socketInode(paths.socket(name)) !== mine.ino) sockets.close(name); // its file was removed: listen again
  await sockets.sync();
  if (!sockets.served.has(name)) await sockets.sync(); // the sync it joined may have begun before the close above
  if (sockets.served.has(name)) return { ok: true, retry: true };
  const who = { worker, generation, runToken: typeof request.token === "string" ? request.token : "" };
  // A replaced generation's wrapper records its exit on its own launch row (it changes nothing else): allowed here.
  if (typeof request.exited === "object" && request.exited !== null) {
    return { ok: true, result: runCall(base, who, "exited", request.exited as Record<string, unknown>) };
  }
  explainUnserved(base, who);
  return { ok: true, retry: true };
}
