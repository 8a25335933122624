// One reviewable version, whatever its kind — a worker's version, a combined one or a stored record — resolved once
// for the verb that asks (reviewable-shape.ts): the one place a ref's kind chooses how it is read.

import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import {
  parseReviewableRef,
  workerVersionRef,
  type ReviewableRef,
  type Subject,
} from "../../domain/deliverables/refs.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import { lazyModule } from "../../substrate/require-esm.js";
import type { EngineContext } from "../context.js";
import { newestCombined } from "./combined.js";
import { notAWorkerRef, pointerOf, type SidecarReader } from "./deliverables.js";
import type { Reviewable, ReviewVerb } from "./reviewable-shape.js";
import { workerReviewable } from "./reviewable-worker.js";
import type { TargetGuards, TargetInput } from "./target.js";

export type { JudgeVerb, Reviewable, ReviewVerb } from "./reviewable-shape.js";

// A stored record's or a pair's kind loads when a ref of it is first read: the verdict queue reads workers' versions only.
const combinedKind = lazyModule<typeof import("./reviewable-combined.js")>(import.meta.url, "./reviewable-combined.js");
const storedKind = lazyModule<typeof import("./reviewable-stored.js")>(import.meta.url, "./reviewable-stored.js");

/**
 * `w3`, `w3:v2`, `worker-deliverable:w3:2`, `combined:w2+w3:1` or a stored ref, with the guards of TargetInput,
 * for `verb`: a kind that never takes the verb (or `--version`) refuses it in its own words before anything is read
 * twice. A diff reads any version a worker id and `--version` name; the judging verbs hold older ones to exact refs.
 */
export function resolveReviewable(ctx: EngineContext, input: TargetInput, verb: ReviewVerb): Reviewable {
  const ref = typeof input.target === "string" ? parseReviewableRef(input.target) : input.target;
  return reviewableOf(ctx, ref, input, verb);
}

/**
 * The Reviewable of a ref already parsed (where the command took its text; nothing below parses it again).
 * `read`: a review run's sidecar memo (review-facts.ts), for a worker's version.
 */
export function reviewableOf(
  ctx: EngineContext,
  ref: ReviewableRef,
  guards: TargetGuards,
  verb: ReviewVerb,
  read?: SidecarReader,
): Reviewable {
  if (ref.kind === "unknown") throw notAWorkerRef(ref.text);
  const r =
    ref.kind === "combined"
      ? combinedKind().combinedReviewable(ctx, ref, guards)
      : ref.kind === "stored"
        ? storedKind().storedReviewable(ctx, ref.name, guards, verb)
        : workerReviewable(
            ctx,
            verb === "diff" && ref.version === undefined && guards.version !== undefined
              ? workerVersionRef(ref.worker, guards.version)
              : ref,
            guards,
            read,
          );
  const refused = r.refuses(verb) ?? (guards.version !== undefined ? r.refuses("--version") : undefined);
  if (refused) throw refused;
  return r;
}

/** The subject's current version: a worker's pointer, or a pair's newest recorded combined one (null: none). */
export function currentOf(ctx: EngineContext, s: Subject): DeliverablePointer | null {
  return s.kind === "combined" ? newestCombined(ctx, s.key) : (pointerOf(requireWorker(ctx.db, s.worker)) ?? null);
}
