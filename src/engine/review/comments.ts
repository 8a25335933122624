// Draft review comments on lines of one exact frozen version: add, edit, delete (each one ledger command under an
// optional idempotency key) and list. Only the human comments; a comment binds the version's ref and sha256.

import { assertExactRef } from "../../domain/ids.js";
import type { DiffFile } from "../../domain/deliverables/diff-files.js";
import { shownDiffFiles } from "../../domain/deliverables/shown-patch.js";
import type { WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { notFound, refusal } from "../../domain/errors.js";
import { optionalKey } from "../../domain/idempotency.js";
import {
  checkCommentText,
  checkLocation,
  parseCommentLocation,
  type CommentLocation,
  quotedLines,
  resolveAnchor,
  type CommentAnchor,
  type CommentSide,
} from "../../domain/review/comment-anchor.js";
import { assertNoControlCharacters } from "../../domain/work/message-text.js";
import {
  commentById,
  commentsOfRef,
  commentsOfWorker,
  deleteCommentDraft,
  insertComment,
  updateCommentText,
  type CommentRow,
  type CommentState,
} from "../../ledger/review/comments.js";
import type { Tx } from "../../ledger/core/runner.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { pointerOf, workerRefOf } from "./deliverables.js";
import { workerVersionRef } from "../../domain/deliverables/refs.js";
import { assertPointerUnchanged, resolveReviewTarget, type ReviewTarget } from "./target.js";

export interface CommentView {
  id: string;
  worker: string;
  ref: string;
  version: number;
  anchor: CommentAnchor;
  text: string;
  state: CommentState;
  decision: string | null;
  /** A draft on a version that is no longer the worker's current one: shown, never sent. */
  outdated: boolean;
  /** The anchored lines as that version's frozen patch shows them. */
  quoted: string[];
}

export interface AddCommentInput {
  /** `w3` (its current version) or the exact `worker-deliverable:w3:2`, which must be current. */
  target: string;
  /** `src/a.ts:10`, `src/a.ts:10-12`, or `src/a.ts` for the whole file; or the same, structured (a page's click). */
  location: string | CommentLocation;
  side?: CommentSide;
  text: string;
  key?: string;
  /** The sha256 of the sidecar the human was looking at (a rendered card). */
  expectSha256?: string;
}

const parsed = new WeakMap<WorkerDeliverable, DiffFile[]>();

/**
 * The parsed frozen patch of one read sidecar as every surface shows it (text frozen as binary decoded), parsed once
 * however many readers (card, comments, page) ask.
 */
export function patchFilesOf(d: WorkerDeliverable): DiffFile[] {
  let files = parsed.get(d);
  if (!files) parsed.set(d, (files = shownDiffFiles(d.changeSet)));
  return files;
}

/** The parsed frozen patch of one target (sidecars never change, so this is the patch the comment is about). */
export function targetFiles(target: ReviewTarget): DiffFile[] {
  return patchFilesOf(target.deliverable);
}

export function addComment(ctx: EngineContext, input: AddCommentInput): CommentView {
  assertHuman(ctx, "comment");
  const text = checkCommentText(input.text);
  assertNoControlCharacters(text, "comment");
  const target = resolveReviewTarget(ctx, workerRefOf(input.target), {
    ...(input.expectSha256 ? { expectSha256: input.expectSha256 } : {}),
  });
  assertCurrent(target);
  const files = targetFiles(target);
  if (files.length === 0) {
    throw refusal(
      "comment-no-patch",
      `${target.pointer.ref} has no frozen patch to comment on; nothing changed`,
      `say what to change with \`docket revise ${target.worker.id} <note>\``,
    );
  }
  const anchor = resolveAnchor({
    ref: target.pointer.ref,
    worker: target.worker.id,
    files,
    location: typeof input.location === "string" ? parseCommentLocation(input.location) : checkLocation(input.location),
    side: input.side ?? "new",
  });
  const key = optionalKey({ tool: "comment.add", callId: input.key });
  const row = ctx.commands.run(
    "review.comment.add",
    { ref: target.pointer.ref, anchor, text },
    (tx) => {
      assertPointerUnchanged(tx, target);
      return insertComment(tx, {
        worker: target.worker.id,
        ref: target.pointer.ref,
        version: target.pointer.version,
        sha256: target.sha256,
        anchor,
        text,
      });
    },
    key ? { key } : {},
  ).result;
  return viewOf(ctx, row, files);
}

export function editComment(ctx: EngineContext, input: { id: string; text: string; key?: string }): CommentView {
  assertHuman(ctx, "comment");
  const text = checkCommentText(input.text);
  assertNoControlCharacters(text, "comment");
  const key = optionalKey({ tool: "comment.edit", callId: input.key });
  const row = ctx.commands.run(
    "review.comment.edit",
    { id: input.id, text },
    (tx) => {
      const c = requireDraft(tx, input.id);
      assertStillCurrent(tx, c, "edit");
      updateCommentText(tx, c.id, text);
      return commentById(tx.db, c.id)!;
    },
    key ? { key } : {},
  ).result;
  return viewOf(ctx, row);
}

/** Deletes a draft (its row stays, marked deleted). An outdated draft may be deleted; a sent one never changes. */
export function deleteComment(ctx: EngineContext, input: { id: string; key?: string }): CommentView {
  assertHuman(ctx, "comment");
  const key = optionalKey({ tool: "comment.delete", callId: input.key });
  const row = ctx.commands.run(
    "review.comment.delete",
    { id: input.id },
    (tx) => {
      const c = requireDraft(tx, input.id);
      deleteCommentDraft(tx, c.id);
      return commentById(tx.db, c.id)!;
    },
    key ? { key } : {},
  ).result;
  return viewOf(ctx, row);
}

export interface CommentList {
  worker: string;
  /** The worker's current version. */
  current: number;
  comments: CommentView[];
}

/** `w3`: every draft and sent comment on its versions; an exact ref: that version's only. */
export function listComments(ctx: EngineContext, target: string): CommentList {
  const t = resolveReviewTarget(ctx, workerRefOf(target));
  const rows = t.exact ? commentsOfRef(ctx.db, t.pointer.ref) : commentsOfWorker(ctx.db, t.worker.id);
  const patches = new Map<string, DiffFile[]>();
  return {
    worker: t.worker.id,
    current: t.current.version,
    comments: rows.map((r) => viewOf(ctx, r, undefined, patches)),
  };
}

function viewOf(ctx: EngineContext, c: CommentRow, files?: DiffFile[], cache?: Map<string, DiffFile[]>): CommentView {
  const current = pointerOf(requireWorker(ctx.db, c.worker));
  let patch = files ?? cache?.get(c.ref);
  if (!patch) {
    patch = targetFiles(resolveReviewTarget(ctx, workerVersionRef(c.worker, c.version)));
    cache?.set(c.ref, patch);
  }
  return commentView(c, patch, current?.ref);
}

/** A comment row as surfaces show it, with its quoted lines from `files` (the patch of its own version). */
export function commentView(c: CommentRow, files: readonly DiffFile[], currentRef: string | undefined): CommentView {
  return {
    id: c.id,
    worker: c.worker,
    ref: c.ref,
    version: c.version,
    anchor: c.anchor,
    text: c.text,
    state: c.state,
    decision: c.decision,
    outdated: c.state === "draft" && currentRef !== c.ref,
    quoted: quotedLines(files, c.anchor),
  };
}

function assertCurrent(target: ReviewTarget): void {
  if (target.pointer.ref === target.current.ref) return;
  throw refusal(
    "comment-version-not-current",
    `${target.pointer.ref} is not ${target.worker.id}'s current version (v${target.current.version}): a comment on it would never be sent; nothing changed`,
    `comment on the current version: \`docket comments ${target.worker.id}\` lists what is there`,
  );
}

function requireDraft(tx: Tx, id: string): CommentRow {
  assertExactRef(id, "a comment id");
  const c = commentById(tx.db, id);
  if (!c) throw notFound("no-such-comment", `there is no review comment ${id}`, "list them with `docket comments <w>`");
  if (c.state === "sent")
    throw refusal(
      "comment-sent",
      `${c.id} was sent with ${c.decision} (revise ${c.ref}); a sent comment never changes`,
      `write a new one on the next version with \`docket comment ${c.worker} <file>:<line> <text>\``,
    );
  if (c.state === "deleted") throw refusal("comment-deleted", `${c.id} was deleted; nothing changed`);
  return c;
}

function assertStillCurrent(tx: Tx, c: CommentRow, what: string): void {
  const now = pointerOf(requireWorker(tx.db, c.worker));
  if (now?.ref === c.ref) return;
  throw refusal(
    "comment-outdated",
    `${c.id} is on ${c.ref}, but ${c.worker}'s current version is v${now?.version ?? "?"}: an outdated draft is never sent, so there is nothing to ${what}; nothing changed`,
    `delete it with \`docket comment --delete ${c.id}\`, or comment on the current version`,
  );
}
