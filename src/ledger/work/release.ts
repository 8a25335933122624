// Releasing the items a worker holds when it is deleted: its active bindings and their obligations resolved with the
// reason, their dispatches closed; each item stays open for another worker, so nothing is owed by a worker that is gone.

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";
import { resolveDispatchIfDone } from "./dispatch.js";

export interface HeldItem {
  item: string;
  binding: string;
  /** The obligation still owed on it (null: already paid by a blocked report's binding, or none). */
  obligation: string | null;
}

/** The items a worker holds through an active binding, with the obligation each still owes, in item order. */
export function heldItemsOf(db: Db, worker: string): HeldItem[] {
  return statement(
    db,
    `SELECT b.item AS item, b.id AS binding, o.id AS obligation FROM bindings b
       LEFT JOIN obligations o ON o.binding = b.id AND o.state = 'owed'
      WHERE b.worker = ? AND b.state = 'active' ORDER BY CAST(substr(b.item, 2) AS INTEGER), b.item`,
  ).all(worker) as HeldItem[];
}

/** Releases what `heldItemsOf` lists; each obligation's disposition is `reason` (what the human reads in `obligations --all`). */
export function releaseHeldItems(tx: Tx, worker: string, reason: string): HeldItem[] {
  const held = heldItemsOf(tx.db, worker);
  const dispatches = statement(
    tx.db,
    "UPDATE bindings SET state = 'resolved', resolved_at = ? WHERE worker = ? AND state = 'active' RETURNING dispatch",
  ).all(tx.now, worker) as { dispatch: string }[];
  const settle = statement(
    tx.db,
    "UPDATE obligations SET state = 'resolved', disposition = ?, resolved_at = ? WHERE binding = ? AND state = 'owed'",
  );
  for (const h of held) settle.run(reason, tx.now, h.binding);
  for (const d of new Set(dispatches.map((x) => x.dispatch))) resolveDispatchIfDone(tx, d);
  return held;
}
