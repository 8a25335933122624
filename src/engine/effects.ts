// The outbox effects this process performs after a command commits, by kind (DESIGN §3).
// Each handler must be idempotent: a crash between the effect and its "done" mark repeats it.

import type { EffectHandler } from "../ledger/core/runner.js";
import type { EngineContext } from "./context.js";
import { writeWorkerStatus } from "./workers/status.js";
import { renderJournalFile } from "./talk/journal.js";

export function createEffectHandlers(ctx: EngineContext): Record<string, EffectHandler> {
  return {
    "worker.status": (effect) => writeWorkerStatus(ctx, (effect.payload as { worker: string }).worker),
    "journal.render": (effect) => void renderJournalFile(ctx, (effect.payload as { projectRoot: string }).projectRoot),
  };
}
