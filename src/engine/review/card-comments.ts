// The comments a card shows: the drafts on this version, and the comments the previous version's revise sent, mapped
// through this version's frozen patch ("current" where their lines still exist, "outdated" where not) with the worker's answers.

import { deliverableRef, parseReviewableRef, workerVersionRef } from "../../domain/deliverables/refs.js";
import type { DeliverablePointer, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import type { DiffFile } from "../../domain/deliverables/diff-files.js";
import { mapAnchor, type MappedAnchor } from "../../domain/review/comment-map.js";
import { formatAnchor } from "../../domain/review/comment-anchor.js";
import { commentsOfRef } from "../../ledger/review/comments.js";
import type { EngineContext } from "../context.js";
import { commentView, patchFilesOf, type CommentView } from "./comments.js";
import { deliverableByRef, notAWorkerRef } from "./deliverables.js";
import { resolveReviewTarget } from "./target.js";

export interface PreviousComment extends CommentView {
  /** Where its lines are in this version's patch, or why they are not. */
  mapped: MappedAnchor;
  /** The worker's answer in this version's docket_done, if it gave one. */
  addressed: string | null;
}

export interface CardComments {
  /** Drafts on this exact version (sent by the next revise while it is current). */
  drafts: CommentView[];
  /** What the revise of the previous version sent, as this version answers it. */
  previous: PreviousComment[];
}

export const NO_COMMENTS: CardComments = { drafts: [], previous: [] };

/** Reads nothing but two indexed lookups when there are no comments; parses patches only for comments it shows. */
export function cardComments(
  ctx: EngineContext,
  input: {
    worker: string;
    pointer: DeliverablePointer;
    deliverable: WorkerDeliverable;
    currentRef: string | undefined;
  },
): CardComments {
  const { pointer, deliverable } = input;
  const drafts = commentsOfRef(ctx.db, pointer.ref, ["draft"]);
  const prevRef = pointer.version > 1 ? deliverableRef(input.worker, pointer.version - 1) : undefined;
  const sent = prevRef ? commentsOfRef(ctx.db, prevRef, ["sent"]) : [];
  if (drafts.length === 0 && sent.length === 0) return NO_COMMENTS;
  const files = patchFilesOf(deliverable);
  let before: DiffFile[] = [];
  if (sent.length > 0) {
    try {
      before = patchFilesOf(deliverableByRef(ctx, workerVersionRef(input.worker, pointer.version - 1)).deliverable);
    } catch (error) {
      // An unreadable earlier sidecar: its comments are still listed, each outdated (nothing to map from).
      if ((error as { code?: string }).code !== "deliverable-invalid") throw error;
    }
  }
  const answers = new Map((deliverable.addressed ?? []).map((a) => [a.comment, a.note]));
  return {
    drafts: drafts.map((c) => commentView(c, files, input.currentRef)),
    previous: sent.map((c) => ({
      ...commentView(c, before, input.currentRef),
      mapped: mapAnchor(before, files, c.anchor),
      addressed: answers.get(c.id) ?? null,
    })),
  };
}

/** The comments of one exact version's card (a page fragment re-rendering one file or the whole diff). */
export function cardCommentsOf(
  ctx: EngineContext,
  ref: string,
): { comments: CardComments; worker: string; isCurrent: boolean } {
  const parsed = parseReviewableRef(ref);
  // Comments are drafted on a worker's version; a combined version's card has none.
  if (parsed.kind === "combined") return { comments: NO_COMMENTS, worker: parsed.key, isCurrent: false };
  if (parsed.kind !== "worker") throw notAWorkerRef(ref);
  const t = resolveReviewTarget(ctx, parsed);
  const comments = cardComments(ctx, {
    worker: t.worker.id,
    pointer: t.pointer,
    deliverable: t.deliverable,
    currentRef: t.current.ref,
  });
  return { comments, worker: t.worker.id, isCurrent: t.pointer.ref === t.current.ref };
}

/** The card's comment sections as text: what the previous revise asked and how this version answers, then drafts. */
export function formatCardComments(c: CardComments, worker: string): string[] {
  const out: string[] = [];
  if (c.previous.length > 0) {
    out.push("", `Comments on v${c.previous[0]!.version} (sent with ${c.previous[0]!.decision})`);
    for (const p of c.previous) {
      const where =
        p.mapped.status === "current" ? `still at ${formatAnchor(p.mapped.anchor)}` : `outdated: ${p.mapped.reason}`;
      out.push(`  ${p.id} ${formatAnchor(p.anchor)} · ${where}`, ...p.text.split("\n").map((l) => `    ${l}`));
      if (p.addressed !== null) out.push(`    ↳ ${worker}: ${p.addressed}`);
    }
  }
  if (c.drafts.length > 0) {
    out.push("", `Draft comments (${c.drafts.length}; \`docket revise ${worker}\` sends them)`);
    for (const d of c.drafts)
      out.push(
        `  ${d.id} ${formatAnchor(d.anchor)}`,
        ...d.quoted.map((q) => `    > ${q}`),
        ...d.text.split("\n").map((l) => `    ${l}`),
      );
  }
  return out;
}
