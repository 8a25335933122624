// Notifications: lines for the human's attention (blocked, outcome, and kinds other use-cases add).
// Pending means not dismissed; rows are written inside the command whose change they announce.

import { formatId } from "../../domain/ids.js";
import { notFound } from "../../domain/errors.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface NewNotification {
  /** `blocked`, `outcome`, or another use-case's kind (`question`, `ready`, `failed`, …). */
  kind: string;
  worker?: string;
  item?: string;
  report?: string;
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

export function insertNotification(tx: Tx, n: NewNotification): string {
  const id = formatId("notification", tx.next("notification"));
  statement(tx.db, "INSERT INTO notifications (id, kind, worker, item, report, body, for_human, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    .run(id, n.kind, n.worker ?? null, n.item ?? null, n.report ?? null, n.body, JSON.stringify(n.forHuman ?? []), tx.now);
  return id;
}

export function listPendingNotifications(db: Db): NotificationRow[] {
  const rows = statement(db, "SELECT id, kind, worker, item, report, body, for_human, created_at FROM notifications WHERE dismissed_at IS NULL ORDER BY CAST(substr(id, 2) AS INTEGER)")
    .all() as { id: string; kind: string; worker: string | null; item: string | null; report: string | null; body: string; for_human: string; created_at: string }[];
  return rows.map((r) => ({ id: r.id, kind: r.kind, worker: r.worker, item: r.item, report: r.report, body: r.body, forHuman: JSON.parse(r.for_human) as string[], createdAt: r.created_at }));
}

/** Dismisses a notification; dismissing one twice changes nothing. */
export function dismissNotification(tx: Tx, id: string): void {
  const row = statement(tx.db, "SELECT id FROM notifications WHERE id = ?").get(id);
  if (!row) throw notFound("notification-not-found", `no notification ${id}`, "run `docket attention` to see pending notifications");
  statement(tx.db, "UPDATE notifications SET dismissed_at = ? WHERE id = ? AND dismissed_at IS NULL").run(tx.now, id);
}
