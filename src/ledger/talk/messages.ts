// Messages to a worker: insert (work envelope, reply review, …), cancel, list. Delivery state lives elsewhere.
// Cancelling only touches messages nobody received yet (delivery = 'queued'); delivered words stay delivered.

import { formatId } from "../../domain/ids.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export type MessageKind = "work" | "reply_review" | "tell" | "answer" | "review_note" | "broadcast";
export type DeliverAs = "steer" | "followUp" | "nextTurn";

export interface NewMessage {
  worker: string;
  kind: MessageKind;
  body: string;
  question?: string;
  dispatch?: string;
  binding?: string;
  deliverAs?: DeliverAs;
  /** Who speaks: the human (default), or the parent agent answering a consult. */
  from?: "human" | "parent-agent";
}

export interface Message {
  id: string;
  worker: string;
  kind: MessageKind;
  body: string;
  question: string | null;
  dispatch: string | null;
  binding: string | null;
  deliverAs: DeliverAs;
  delivery: "queued" | "delivered" | "read" | "cancelled";
  deliveredGeneration: number | null;
  createdAt: string;
  deliveredAt: string | null;
  readAt: string | null;
  deliveredVia: "inbox" | "pane" | null;
  fromActor: "human" | "parent-agent";
}

/** A message row's columns under the names `Message` gives them. */
export const MESSAGE_COLUMNS = `id, worker, kind, body, question, dispatch, binding, deliver_as AS deliverAs, delivery,
  delivered_generation AS deliveredGeneration, created_at AS createdAt, delivered_at AS deliveredAt, read_at AS readAt,
  delivered_via AS deliveredVia, from_actor AS fromActor`;

export function insertMessage(tx: Tx, m: NewMessage): string {
  const id = formatId("message", tx.next("message"));
  statement(
    tx.db,
    `INSERT INTO messages (id, worker, kind, body, question, dispatch, binding, deliver_as, delivery, created_at, from_actor)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
  ).run(
    id,
    m.worker,
    m.kind,
    m.body,
    m.question ?? null,
    m.dispatch ?? null,
    m.binding ?? null,
    m.deliverAs ?? "steer",
    tx.now,
    m.from ?? "human",
  );
  return id;
}

/** Cancels the dispatch's work envelopes nobody has received yet; returns how many. */
export function cancelUndeliveredEnvelopes(tx: Tx, at: { worker: string; dispatch: string }): number {
  // worker + delivery first: the (worker, delivery) index keeps this off a scan of every message ever sent
  return statement(
    tx.db,
    "UPDATE messages SET delivery = 'cancelled' WHERE worker = ? AND delivery = 'queued' AND dispatch = ? AND kind = 'work'",
  ).run(at.worker, at.dispatch).changes;
}

/** Cancels the binding's reply reviews not yet delivered: there is no active work left to amend. */
export function cancelPendingReplyReviews(tx: Tx, at: { worker: string; binding: string }): number {
  return statement(
    tx.db,
    "UPDATE messages SET delivery = 'cancelled' WHERE worker = ? AND delivery = 'queued' AND binding = ? AND kind = 'reply_review'",
  ).run(at.worker, at.binding).changes;
}
