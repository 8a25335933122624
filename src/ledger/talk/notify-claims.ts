// Sending notifications exactly once: a dispatcher claims every unsent event row in one command, then sends it.
// The claim is the send: a second process (or a restart) finds the rows sent and sends nothing.

import { NOTIFY_EVENTS, type NotifyEventKind, type NotifyRow } from "../../domain/talk/notify.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

/** One indexed probe: is any event older than `dueBefore` still unsent? What a short-lived command asks before anything else. */
export function hasDueNotification(db: Db, dueBefore: string): boolean {
  return (
    statement(db, "SELECT 1 FROM notifications WHERE sent_at IS NULL AND created_at <= ? LIMIT 1").get(dueBefore) !==
    undefined
  );
}

/**
 * Claims the unsent events when the oldest of them is due (older than `dueBefore`): all of them, so events that came
 * within the batch window go out together. Returns them oldest first; empty when none is due.
 */
export function claimDueNotifications(
  tx: Tx,
  input: { dueBefore: string; holder: string; limit: number },
): (NotifyRow & { kind: NotifyEventKind })[] {
  if (!hasDueNotification(tx.db, input.dueBefore)) return [];
  const rows = statement(
    tx.db,
    `SELECT id, kind, worker, item, ref, body, created_at FROM notifications WHERE sent_at IS NULL
      ORDER BY created_at, CAST(substr(id, 2) AS INTEGER) LIMIT ?`,
  ).all(input.limit) as {
    id: string;
    kind: string;
    worker: string | null;
    item: string | null;
    ref: string | null;
    body: string;
    created_at: string;
  }[];
  const mark = statement(tx.db, "UPDATE notifications SET sent_at = ?, sent_by = ? WHERE id = ? AND sent_at IS NULL");
  const claimed: (NotifyRow & { kind: NotifyEventKind })[] = [];
  for (const r of rows) {
    if (mark.run(tx.now, input.holder, r.id).changes === 0) continue;
    if (!(NOTIFY_EVENTS as readonly string[]).includes(r.kind)) continue; // written sent already by insertNotification; never here
    claimed.push({
      id: r.id,
      kind: r.kind as NotifyEventKind,
      worker: r.worker,
      item: r.item,
      body: r.body,
      createdAt: r.created_at,
      deliverableRef: r.ref,
    });
  }
  return claimed;
}

/** Records what the sinks did with a claimed batch (shown by `docket doctor`). */
export function recordNotifyResult(tx: Tx, ids: readonly string[], result: string): void {
  const set = statement(tx.db, "UPDATE notifications SET sent_by = sent_by || ' · ' || ? WHERE id = ?");
  for (const id of ids) set.run(result, id);
}

/** The newest sent event batch: when and what the sinks said. */
export function lastNotifySend(db: Db): { at: string; by: string } | undefined {
  const r = statement(
    db,
    "SELECT sent_at, sent_by FROM notifications WHERE sent_at IS NOT NULL AND sent_by NOT IN ('not-an-event', 'before-012') ORDER BY sent_at DESC LIMIT 1",
  ).get() as { sent_at: string; sent_by: string } | undefined;
  return r ? { at: r.sent_at, by: r.sent_by } : undefined;
}
