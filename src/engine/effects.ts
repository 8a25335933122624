// The outbox effects this process performs after a command commits, by kind (DESIGN §3).
// Each handler must be idempotent: a crash between the effect and its "done" mark repeats it. A handler's module loads
// when the first effect of its kind runs (`require` of an ES module, where node can; else with this module), so a
// command that emits none (a verdict) loads neither the status projection nor the journal.

import { createRequire } from "node:module";
import type { EffectHandler } from "../ledger/core/runner.js";
import { requireLoadsEsm } from "../substrate/require-esm.js";
import type { EngineContext } from "./context.js";

type Status = typeof import("./workers/status.js");
type Journal = typeof import("./talk/journal.js");
const eager = requireLoadsEsm
  ? undefined
  : {
      status: (await import("./workers/status.js")) as Status,
      journal: (await import("./talk/journal.js")) as Journal,
    };
const load = createRequire(import.meta.url);
let status: Status | undefined = eager?.status;
let journal: Journal | undefined = eager?.journal;

export function createEffectHandlers(ctx: EngineContext): Record<string, EffectHandler> {
  return {
    "worker.status": (effect) =>
      (status ??= load("./workers/status.js") as Status).writeWorkerStatus(
        ctx,
        (effect.payload as { worker: string }).worker,
      ),
    "journal.render": (effect) =>
      void (journal ??= load("./talk/journal.js") as Journal).renderJournalFile(
        ctx,
        (effect.payload as { projectRoot: string }).projectRoot,
      ),
  };
}
