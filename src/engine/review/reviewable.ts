// One reviewable version, whatever its kind — a worker's version, a combined one or a stored record — resolved once
// for the verb that asks (reviewable-shape.ts): the one place a ref's kind chooses how it is read.

import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { deliverableRef, parseReviewableRef, parseSubject } from "../../domain/deliverables/refs.js";
import { validationError } from "../../domain/errors.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { newestCombined } from "./combined.js";
import { pointerOf } from "./deliverables.js";
import { combinedReviewable } from "./reviewable-combined.js";
import type { Reviewable, ReviewVerb } from "./reviewable-shape.js";
import { storedReviewable } from "./reviewable-stored.js";
import { workerReviewable } from "./reviewable-worker.js";
import type { TargetInput } from "./target.js";

export type { JudgeVerb, Reviewable, ReviewVerb } from "./reviewable-shape.js";

/**
 * `w3`, `w3:v2`, `worker-deliverable:w3:2`, `combined:w2+w3:1` or a stored ref, with the guards of TargetInput,
 * for `verb`: a kind that never takes the verb (or `--version`) refuses it in its own words before anything is read
 * twice. A diff reads any version a worker id and `--version` name; the judging verbs hold older ones to exact refs.
 */
export function resolveReviewable(ctx: EngineContext, input: TargetInput, verb: ReviewVerb): Reviewable {
  const ref = parseReviewableRef(input.target);
  const r =
    ref.kind === "combined"
      ? combinedReviewable(ctx, input)
      : ref.kind === "stored"
        ? storedReviewable(ctx, input, verb)
        : workerReviewable(
            ctx,
            verb === "diff" && ref.kind === "worker" && ref.version === undefined && input.version !== undefined
              ? { ...input, target: deliverableRef(ref.worker, input.version) }
              : input,
          );
  const refused = r.refuses(verb) ?? (input.version !== undefined ? r.refuses("--version") : undefined);
  if (refused) throw refused;
  return r;
}

/** The subject's current version: a worker's pointer, or a pair's newest recorded combined one (null: none). */
export function currentOf(ctx: EngineContext, subject: string): DeliverablePointer | null {
  const s = parseSubject(subject);
  if (!s)
    throw validationError(
      "bad-worker-id",
      `"${subject}" is not a worker or a combined pair`,
      "use w<N>, or combined:w<N>+w<M>:<K>",
    );
  return s.kind === "combined" ? newestCombined(ctx, s.key) : (pointerOf(requireWorker(ctx.db, s.worker)) ?? null);
}
