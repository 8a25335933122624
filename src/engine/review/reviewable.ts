// What a card's subject is, whatever its kind: a worker's versions or a combined pair's, and which of them is current.
// Every kind-dependent answer a review surface needs is asked here, through the one ref grammar (domain/deliverables/refs.ts).

import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { parseSubject } from "../../domain/deliverables/refs.js";
import { validationError } from "../../domain/errors.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { newestCombined } from "./combined.js";
import { pointerOf } from "./deliverables.js";

/** The subject's current version: a worker's committed pointer, or a pair's newest recorded combined version; null: none yet. */
export function currentOf(ctx: EngineContext, subject: string): DeliverablePointer | null {
  const s = parseSubject(subject);
  if (!s) throw validationError("bad-worker-id", `"${subject}" is not a worker or a combined pair`, "use w<N>, or combined:w<N>+w<M>:<K>");
  return s.kind === "combined" ? newestCombined(ctx, s.key) : (pointerOf(requireWorker(ctx.db, s.worker)) ?? null);
}
