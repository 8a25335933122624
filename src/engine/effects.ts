// The outbox effects this process performs after a command commits, by kind (docs/decisions/command-pattern.md).
// Each handler must be idempotent: a crash between the effect and its "done" mark repeats it. A handler's module loads
// when the first effect of its kind runs (`require` of an ES module), so a
// command that emits none (a verdict) loads neither the status projection nor the journal.

import type { EffectHandler } from "../ledger/core/runner.js";
import { lazyModule } from "../substrate/require-esm.js";
import type { EngineContext } from "./context.js";

type Status = typeof import("./workers/status.js");
type Journal = typeof import("./talk/journal.js");
type Groups = typeof import("./groups/stop-candidates.js");
const status = lazyModule<Status>(import.meta.url, "./workers/status.js");
const journal = lazyModule<Journal>(import.meta.url, "./talk/journal.js");
const groups = lazyModule<Groups>(import.meta.url, "./groups/stop-candidates.js");

export function createEffectHandlers(ctx: EngineContext): Record<string, EffectHandler> {
  return {
    "worker.status": (effect) => status().writeWorkerStatus(ctx, (effect.payload as { worker: string }).worker),
    "journal.render": (effect) =>
      void journal().renderJournalFile(ctx, (effect.payload as { projectRoot: string }).projectRoot),
    // A best-of choice or a group's budget stopped these candidates: their windows close (already gone is fine).
    "group.stop": (effect) => groups().stopCandidates(ctx, (effect.payload as { workers: string[] }).workers),
  };
}
