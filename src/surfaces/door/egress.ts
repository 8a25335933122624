// The door's egress socket: contained workers with network `allow` reach other hosts only through it (their relay
// names them on each connection); the proxy and its ledger records are the engine's (engine/workers/egress-service.ts).

import { join } from "node:path";
import { EGRESS_SOCKET } from "../../domain/workers/egress-plan.js";
import type { EngineContext } from "../../engine/context.js";
import type { DoorPaths } from "../../engine/door/serve.js";
import { removeSocketIfInode } from "../../engine/door/serve.js";
import { createEgressService } from "../../engine/workers/egress-service.js";
import { listenReplacing } from "./listen.js";

export async function startEgress(base: EngineContext, paths: DoorPaths): Promise<{ stop(): void }> {
  const service = createEgressService(base, (error) =>
    process.stderr.write(`door: egress records: ${error.message}\n`),
  );
  const path = join(paths.dir, EGRESS_SOCKET);
  let ino: number | undefined;
  try {
    ino = await listenReplacing(service.server, paths.dir, path);
  } catch (error) {
    process.stderr.write(`door: cannot listen for egress: ${(error as Error).message}\n`);
  }
  return {
    stop() {
      service.flush();
      service.close();
      removeSocketIfInode(path, ino);
    },
  };
}
