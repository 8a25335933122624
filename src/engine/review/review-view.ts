// Everything a review page shows for one exact version: the verdict card, its structured actions, the frozen
// diff as per-file data (rows built per file, lazily), the version's decision history, and the stamp (current version, newest decision) actions bind to.

import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { parseReviewableRef, subjectOf, type Subject } from "../../domain/deliverables/refs.js";
import type { DiffFile } from "../../domain/deliverables/diff-files.js";
import { NO_FILES, everyFile, reviewFilesOf, type ReviewFiles } from "./review-files.js";
import { decisionsForRef, lastDecisionOf, type Decision } from "../../ledger/review/decisions.js";
import type { EngineContext } from "../context.js";
import { bindMove, type CardAction } from "../../domain/review/card-actions.js";
import { currentOf } from "./reviewable.js";
import { cardOf, type VerdictCard } from "./verdict.js";

export interface ReviewView {
  card: VerdictCard;
  /** The worker's current version when read (the card may show an older one). */
  current: DeliverablePointer | null;
  isCurrent: boolean;
  /** The worker's newest decision id, read before the card: an action bound to it is refused if another landed. */
  lastDecision: string | null;
  /** Structured actions; none on an older version (judge the current one). */
  actions: CardAction[];
  /** The frozen diff: every file's head now, a file's rows when it is asked for (a page renders few files' rows). */
  diff: ReviewFiles;
  /** Every file with its rows, built when first read (a surface that shows them all). */
  readonly files: DiffFile[];
  /** Decisions on this exact version, oldest first. */
  history: Decision[];
}

/** `target`: `w<N>` (current version), an exact `worker-deliverable:w<N>:<K>`, or a combined `combined:w<N>+w<M>:<K>`. */
export function reviewView(ctx: EngineContext, target: string): ReviewView {
  const ref = parseReviewableRef(target);
  const named = subjectOf(ref);
  // Read before the card: a decision landing while the card is built makes the stamp older, so the action is refused.
  const lastDecision = named ? (lastDecisionOf(ctx.db, named)?.id ?? null) : null;
  const card = cardOf(ctx, ref);
  // The card opens only for a worker's version or a combined one: its subject is the ref's.
  const subject: Subject =
    ref.kind === "combined" ? { kind: "combined", key: ref.key } : { kind: "worker", worker: card.worker };
  const current = currentOf(ctx, subject);
  const isCurrent = card.deliverable === null || card.deliverable.ref === current?.ref;
  const diff = card.detail.deliverable ? reviewFilesOf(card.detail.deliverable) : NO_FILES;
  return {
    card,
    current,
    isCurrent,
    lastDecision,
    actions: isCurrent
      ? card.moves.map((m) =>
          bindMove(m, {
            worker: card.worker,
            ref: card.deliverable?.ref ?? null,
            version: card.deliverable?.version ?? null,
          }),
        )
      : [],
    diff,
    get files() {
      return everyFile(diff);
    },
    history: card.deliverable ? decisionsForRef(ctx.db, card.deliverable.ref) : [],
  };
}
