// Message delivery state: queued → delivered (a worker process claimed it) → read (that process was seen reading it).
// Each step is observed by the worker's runtime, never assumed; a respawn puts unread messages back in the queue.

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { MESSAGE_COLUMNS, type Message } from "./messages.js";
import { statement } from "../core/statements.js";

/** Claims every queued message of the worker for this generation; returns them in queue order. */
export function claimQueuedMessages(tx: Tx, worker: string, generation: number): Message[] {
  return statement(
    tx.db,
    `UPDATE messages SET delivery = 'delivered', delivered_generation = ?, delivered_at = ?, delivered_via = 'inbox'
       WHERE worker = ? AND delivery = 'queued' RETURNING ${MESSAGE_COLUMNS}`,
  )
    .all(generation, tx.now, worker)
    .sort((a, b) => rowOrder(a as Message) - rowOrder(b as Message)) as Message[];
}

/**
 * A work envelope written into a new worker's task.md: delivered with its first prompt, never a turn of its own
 * (delivered_via stays null: neither claimed from the inbox nor pasted into a pane).
 */
export function markDeliveredWithBrief(tx: Tx, id: string, generation: number): void {
  statement(
    tx.db,
    "UPDATE messages SET delivery = 'delivered', delivered_generation = ?, delivered_at = ? WHERE id = ? AND delivery = 'queued'",
  ).run(generation, tx.now, id);
}

function rowOrder(m: Message): number {
  return Number(m.id.replace(/\D/g, ""));
}

/** Marks messages delivered to this generation as read; returns the ids that changed. */
export function markMessagesRead(tx: Tx, worker: string, generation: number, ids: readonly string[]): string[] {
  const mark = statement(
    tx.db,
    "UPDATE messages SET delivery = 'read', read_at = ? WHERE id = ? AND worker = ? AND delivery = 'delivered' AND delivered_generation = ?",
  );
  return ids.filter((id) => mark.run(tx.now, id, worker, generation).changes > 0);
}

/**
 * A command worker has no inbox reader: a message pasted into its pane is delivered the moment tmux took the paste.
 * Marks that one message delivered to `generation` (only while still queued); false when it was not queued.
 */
export function markPasted(tx: Tx, id: string, worker: string, generation: number): boolean {
  return (
    statement(
      tx.db,
      "UPDATE messages SET delivery = 'delivered', delivered_via = 'pane', delivered_generation = ?, delivered_at = ? WHERE id = ? AND worker = ? AND delivery = 'queued'",
    ).run(generation, tx.now, id, worker).changes > 0
  );
}

/**
 * Respawn: words an inbox reader claimed but was never seen reading go back to the queue for the new process.
 * Words pasted into a command worker's pane stay delivered: the pane took them, and nothing would take them again.
 */
export function requeueUnread(tx: Tx, worker: string): number {
  return statement(
    tx.db,
    "UPDATE messages SET delivery = 'queued', delivered_generation = NULL, delivered_at = NULL, delivered_via = NULL WHERE worker = ? AND delivery = 'delivered' AND delivered_via IS NOT 'pane'",
  ).run(worker).changes;
}

/** Delete: nothing will ever take the worker's queued messages. */
export function cancelQueuedMessages(tx: Tx, worker: string): number {
  return statement(tx.db, "UPDATE messages SET delivery = 'cancelled' WHERE worker = ? AND delivery = 'queued'").run(
    worker,
  ).changes;
}

export function hasQueuedMessages(db: Db, worker: string): boolean {
  return (
    statement(db, "SELECT 1 FROM messages WHERE worker = ? AND delivery = 'queued' LIMIT 1").get(worker) !== undefined
  );
}

export type MessageDelivery = Pick<Message, "id" | "kind" | "delivery" | "body" | "question" | "createdAt">;

export function messageDeliveries(db: Db, worker: string): MessageDelivery[] {
  return (
    statement(
      db,
      "SELECT id, kind, delivery, body, question, created_at AS createdAt FROM messages WHERE worker = ?",
    ).all(worker) as MessageDelivery[]
  ).sort((a, b) => Number(a.id.replace(/\D/g, "")) - Number(b.id.replace(/\D/g, "")));
}

/** Messages delivered to this generation and not yet seen read, in queue order. */
export function deliveredUnread(db: Db, worker: string, generation: number): Message[] {
  return (
    statement(
      db,
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE worker = ? AND delivery = 'delivered' AND delivered_generation = ?`,
    ).all(worker, generation) as Message[]
  ).sort((a, b) => rowOrder(a) - rowOrder(b));
}

/** Puts claimed messages back in the queue (their delivery never reached the process). */
export function requeueMessages(tx: Tx, worker: string, ids: readonly string[]): number {
  const put = statement(
    tx.db,
    "UPDATE messages SET delivery = 'queued', delivered_generation = NULL, delivered_at = NULL WHERE id = ? AND worker = ? AND delivery = 'delivered'",
  );
  return ids.reduce((n, id) => n + put.run(id, worker).changes, 0);
}

/** The newest message row so far (a parent session shows the deliveries of messages sent after it started). */
export function lastMessageRowid(db: Db): number {
  return (statement(db, "SELECT coalesce(max(rowid), 0) AS n FROM messages").get() as { n: number }).n;
}

/** The human's words (tell, answer, review note) to one project's workers after rowid `mark`, oldest first, with where each got. */
export function humanMessagesSince(
  db: Db,
  mark: number,
  projectRoot: string,
): { message: string; worker: string; delivery: Message["delivery"]; workerExited: boolean }[] {
  const rows = statement(
    db,
    `SELECT m.id, m.worker, m.delivery, w.exited FROM messages m JOIN workers w ON w.id = m.worker
      WHERE m.rowid > ? AND m.kind IN ('tell', 'answer', 'review_note') AND w.project_root = ? ORDER BY m.rowid`,
  ).all(mark, projectRoot) as { id: string; worker: string; delivery: Message["delivery"]; exited: number }[];
  return rows.map((r) => ({ message: r.id, worker: r.worker, delivery: r.delivery, workerExited: r.exited === 1 }));
}
