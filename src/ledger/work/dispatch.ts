// Dispatch rows: one hand-over of items to a worker at one generation, resolved with its last active binding.
// Writes run inside a command; the "resolve only when no binding is active" rule lives in resolveDispatchIfDone
// (docs/decisions/item-reports.md).

import { formatId } from "../../domain/ids.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export function insertDispatch(tx: Tx, worker: string, generation: number): string {
  const id = formatId("dispatch", tx.next("dispatch"));
  statement(
    tx.db,
    "INSERT INTO dispatches (id, worker, generation, state, created_at) VALUES (?, ?, ?, 'active', ?)",
  ).run(id, worker, generation, tx.now);
  return id;
}

/**
 * Resolves the dispatch when none of its bindings is still active; returns true when it did.
 * A dispatch with an active binding stays active: partial success never closes the whole batch.
 */
export function resolveDispatchIfDone(tx: Tx, id: string): boolean {
  const active = statement(tx.db, "SELECT COUNT(*) AS n FROM bindings WHERE dispatch = ? AND state = 'active'").get(
    id,
  ) as { n: number };
  if (active.n > 0) return false;
  return (
    statement(tx.db, "UPDATE dispatches SET state = 'resolved', resolved_at = ? WHERE id = ? AND state = 'active'").run(
      tx.now,
      id,
    ).changes > 0
  );
}
