// Notifications: lines for the human's attention (blocked, outcome, and kinds other use-cases add).
// Pending means not dismissed; rows are written inside the command whose change they announce.

import { formatId } from "../../domain/ids.js";
import { isNotifyEvent } from "../../domain/talk/notify.js";
import { notFound } from "../../domain/errors.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { jsonColumn } from "../core/json-columns.js";
import { statement } from "../core/statements.js";
import { openQuestionCountSql } from "../workers/questions.js";

export interface NewNotification {
  /** `blocked`, `outcome`, or another use-case's kind (`question`, `ready`, `failed`, …). */
  kind: string;
  worker?: string;
  item?: string;
  report?: string;
  /** The deliverable ref the notification is about (a ready version). */
  ref?: string;
  body: string;
  forHuman?: string[];
}

export interface NotificationRow {
  id: string;
  kind: string;
  worker: string | null;
  item: string | null;
  report: string | null;
  body: string;
  forHuman: string[];
  createdAt: string;
}

/** A kind that is no event for the sinks is born sent, so the unsent index holds only what must go out. */
export function insertNotification(tx: Tx, n: NewNotification): string {
  const id = formatId("notification", tx.next("notification"));
  const sent = isNotifyEvent(n.kind) ? null : tx.now;
  statement(
    tx.db,
    "INSERT INTO notifications (id, kind, worker, item, report, ref, body, for_human, created_at, sent_at, sent_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ).run(
    id,
    n.kind,
    n.worker ?? null,
    n.item ?? null,
    n.report ?? null,
    n.ref ?? null,
    n.body,
    JSON.stringify(n.forHuman ?? []),
    tx.now,
    sent,
    sent === null ? null : "not-an-event",
  );
  return id;
}

/** What the worker a notification is about is now (to tell a fresh notice from a settled one); null: about no worker. */
export type WorkerNow = {
  deleted: boolean;
  state: string | null;
  reviewedAt: string | null;
  deliverableVersion: number | null;
  openQuestions: number;
} | null;

const WITH_NOW = `SELECT n.id, n.kind, n.worker, n.item, n.report, n.body, n.for_human, n.created_at, w.deleted_at, w.state, w.reviewed_at, w.deliverable_version,
            ${openQuestionCountSql("n.worker")} AS open_questions
       FROM notifications n LEFT JOIN workers w ON w.id = n.worker`;

/** A row of WITH_NOW: the columns NotificationRow keeps as they are, then the snake_case ones. */
interface WithNowRow extends Pick<NotificationRow, "id" | "kind" | "worker" | "item" | "report" | "body"> {
  for_human: string;
  created_at: string;
  deleted_at: string | null;
  state: string | null;
  reviewed_at: string | null;
  deliverable_version: number | null;
  open_questions: number;
}

const nowOf = (r: WithNowRow): WorkerNow =>
  r.worker === null
    ? null
    : {
        deleted: r.deleted_at !== null,
        state: r.state,
        reviewedAt: r.reviewed_at,
        deliverableVersion: r.deliverable_version,
        openQuestions: r.open_questions,
      };

/** Every notification not dismissed, oldest first, with what its worker is now. */
export function listPendingNotifications(db: Db): (NotificationRow & { now: WorkerNow })[] {
  const rows = statement(
    db,
    `${WITH_NOW} WHERE n.dismissed_at IS NULL ORDER BY CAST(substr(n.id, 2) AS INTEGER)`,
  ).all() as WithNowRow[];
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    worker: r.worker,
    item: r.item,
    report: r.report,
    body: r.body,
    forHuman: forHumanOf(r),
    createdAt: r.created_at,
    now: nowOf(r),
  }));
}

const forHumanOf = (r: { id: string; for_human: string }): string[] =>
  jsonColumn(r.for_human, (v) => (Array.isArray(v) ? v.map(String) : undefined), {
    table: "notifications",
    column: "for_human",
    id: r.id,
  });

export type ParentNotificationRow = Omit<NotificationRow, "report" | "createdAt">;

/** A notification the parent has not shown, with what its worker is now. */
export interface UndeliveredNotification extends ParentNotificationRow {
  now: WorkerNow;
}

/** Notifications for one project's workers (or for no worker) that the parent session has not shown, oldest first, at most 50. */
export function undeliveredNotifications(db: Db, projectRoot: string): UndeliveredNotification[] {
  const rows = statement(
    db,
    `${WITH_NOW} WHERE n.delivered_at IS NULL AND n.dismissed_at IS NULL AND (w.project_root = ? OR n.worker IS NULL)
      ORDER BY CAST(substr(n.id, 2) AS INTEGER) LIMIT 50`,
  ).all(projectRoot) as WithNowRow[];
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    worker: r.worker,
    item: r.item,
    body: r.body,
    forHuman: forHumanOf(r),
    now: nowOf(r),
  }));
}

/** Marks notifications shown to the parent (one already marked stays as it was). */
export function markDelivered(tx: Tx, ids: readonly string[]): void {
  for (const id of ids)
    statement(tx.db, "UPDATE notifications SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL").run(tx.now, id);
}

/** Dismisses a notification; dismissing one twice changes nothing. */
export function dismissNotification(tx: Tx, id: string): void {
  const row = statement(tx.db, "SELECT id FROM notifications WHERE id = ?").get(id);
  if (!row)
    throw notFound(
      "notification-not-found",
      `no notification ${id}`,
      "run `docket attention` to see pending notifications",
    );
  statement(tx.db, "UPDATE notifications SET dismissed_at = ? WHERE id = ? AND dismissed_at IS NULL").run(tx.now, id);
}
