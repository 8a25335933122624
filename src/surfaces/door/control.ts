// The door's two non-worker sockets. The control socket, in the human side's control directory (no sandbox or host
// sees it), answers sync, stop and status. The explain socket, beside the workers', answers only explain.

import { doorSocketName } from "../../domain/door.js";
import { fenced } from "../../domain/errors.js";
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

/** The handler of one request on the control socket: the human's side (and the supervisor) only. */
export function createControlCall(o: ControlOptions): (request: Reply) => Promise<Reply> {
  const { sockets } = o;
  const names = () => [...sockets.served.keys()];
  return async (request) => {
    switch (request.call) {
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

/**
 * The handler of one request on the explain socket, which every sandbox can reach: a worker whose own socket is
 * missing asks why (or, replaced, records its exit). Anything else is refused and changes nothing.
 */
export function createExplainCall(
  o: Pick<ControlOptions, "paths" | "base" | "sockets">,
): (request: Reply) => Promise<Reply> {
  return async (request) => {
    if (request.call === "explain") return explain(o, request);
    throw fenced(
      "door-explain-only",
      `the door's explain socket answers only "explain", not ${JSON.stringify(request.call)}; the call is refused`,
      "only the human's side stops or steers the door",
    );
  };
}

/** Listens again for a generation the ledger serves; for one it does not, says why (or records a replaced one's exit). */
async function explain(
  { paths, base, sockets }: Pick<ControlOptions, "paths" | "base" | "sockets">,
  request: Reply,
): Promise<Reply> {
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
