// Review comment rows: drafts on one exact deliverable version (bound to its sha256), edited or deleted while drafts,
// frozen once a revise decision sends them (the schema's triggers refuse any later change).

import type { CommentAnchor, CommentSide } from "../../domain/review/comment-anchor.js";
import { formatId } from "../../domain/ids.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export type CommentState = "draft" | "sent" | "deleted";

export interface CommentRow {
  id: string;
  worker: string;
  ref: string;
  version: number;
  /** The sha256 of the sidecar the comment was written on. */
  sha256: string;
  anchor: CommentAnchor;
  text: string;
  state: CommentState;
  /** The revise decision that sent it (state `sent`). */
  decision: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  worker: string;
  deliverable_ref: string;
  deliverable_version: number;
  content_sha256: string;
  file: string;
  side: CommentSide;
  line_start: number | null;
  line_end: number | null;
  text: string;
  state: CommentState;
  decision: string | null;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: Row): CommentRow => ({
  id: r.id,
  worker: r.worker,
  ref: r.deliverable_ref,
  version: r.deliverable_version,
  sha256: r.content_sha256,
  anchor: { file: r.file, side: r.side, start: r.line_start, end: r.line_end },
  text: r.text,
  state: r.state,
  decision: r.decision,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** What a new draft is given; the rest (id, state, times) the insert makes. */
export type NewComment = Pick<CommentRow, "worker" | "ref" | "version" | "sha256" | "anchor" | "text">;

export function insertComment(tx: Tx, c: NewComment): CommentRow {
  const seq = tx.next("comment");
  const id = formatId("comment", seq);
  statement(
    tx.db,
    `INSERT INTO review_comments (id, seq, worker, deliverable_ref, deliverable_version, content_sha256, file, side, line_start, line_end, text, state, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?, ?)`,
  ).run(
    id,
    seq,
    c.worker,
    c.ref,
    c.version,
    c.sha256,
    c.anchor.file,
    c.anchor.side,
    c.anchor.start,
    c.anchor.end,
    c.text,
    tx.now,
    tx.now,
  );
  return commentById(tx.db, id)!;
}

export function commentById(db: Db, id: string): CommentRow | undefined {
  const row = statement(db, "SELECT * FROM review_comments WHERE id = ?").get(id) as Row | undefined;
  return row ? fromRow(row) : undefined;
}

/** Changes a draft's text; false when it is no longer a draft. */
export function updateCommentText(tx: Tx, id: string, text: string): boolean {
  return (
    statement(tx.db, "UPDATE review_comments SET text = ?, updated_at = ? WHERE id = ? AND state = 'draft'").run(
      text,
      tx.now,
      id,
    ).changes === 1
  );
}

/** Marks a draft deleted (the row stays); false when it is no longer a draft. */
export function deleteCommentDraft(tx: Tx, id: string): boolean {
  return (
    statement(
      tx.db,
      "UPDATE review_comments SET state = 'deleted', updated_at = ? WHERE id = ? AND state = 'draft'",
    ).run(tx.now, id).changes === 1
  );
}

/** Marks drafts sent with one decision; returns how many were. */
export function markCommentsSent(tx: Tx, ids: readonly string[], decision: string): number {
  const mark = statement(
    tx.db,
    "UPDATE review_comments SET state = 'sent', decision = ?, updated_at = ? WHERE id = ? AND state = 'draft'",
  );
  return ids.reduce((n, id) => n + mark.run(decision, tx.now, id).changes, 0);
}

const LIVE_STATES: readonly CommentState[] = ["draft", "sent"];

/** The comments whose `column` is `value` in `states`, oldest first. */
function commentsWhere(db: Db, column: "deliverable_ref" | "worker", value: string, states: readonly CommentState[]) {
  return (
    statement(
      db,
      `SELECT * FROM review_comments WHERE ${column} = ? AND state IN (SELECT value FROM json_each(?)) ORDER BY seq`,
    ).all(value, JSON.stringify(states)) as Row[]
  ).map(fromRow);
}

/** The comments of one exact version in `states`, oldest first. */
export const commentsOfRef = (db: Db, ref: string, states = LIVE_STATES): CommentRow[] =>
  commentsWhere(db, "deliverable_ref", ref, states);

/** Every comment on a worker's versions in `states`, oldest first. */
export const commentsOfWorker = (db: Db, worker: string, states = LIVE_STATES): CommentRow[] =>
  commentsWhere(db, "worker", worker, states);

/** The comments one decision sent, oldest first. */
export function commentsOfDecision(db: Db, decision: string): CommentRow[] {
  return (statement(db, "SELECT * FROM review_comments WHERE decision = ? ORDER BY seq").all(decision) as Row[]).map(
    fromRow,
  );
}
