// Bindings: item ↔ worker@generation with the item revision the worker accepted; active until a terminal report.
// At most one active binding per item (unique index); respawn moves active bindings to the new generation
// (docs/decisions/workers.md).

import { formatId } from "../../domain/ids.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface Binding {
  id: string;
  dispatch: string;
  item: string;
  worker: string;
  generation: number;
  acceptedRevision: number;
  state: "active" | "resolved";
  createdAt: string;
  resolvedAt: string | null;
}

const COLUMNS =
  "id, dispatch, item, worker, generation, accepted_revision AS acceptedRevision, state, created_at AS createdAt, resolved_at AS resolvedAt";

export interface NewBinding {
  dispatch: string;
  item: string;
  worker: string;
  generation: number;
  acceptedRevision: number;
}

export function insertBinding(tx: Tx, b: NewBinding): string {
  const id = formatId("binding", tx.next("binding"));
  statement(
    tx.db,
    "INSERT INTO bindings (id, dispatch, item, worker, generation, accepted_revision, state, created_at) VALUES (?, ?, ?, ?, ?, ?, 'active', ?)",
  ).run(id, b.dispatch, b.item, b.worker, b.generation, b.acceptedRevision, tx.now);
  return id;
}

/** The item's active binding, whoever holds it. */
export function activeBindingForItem(db: Db, item: string): Binding | undefined {
  return statement(db, `SELECT ${COLUMNS} FROM bindings WHERE item = ? AND state = 'active'`).get(item) as
    | Binding
    | undefined;
}

/** The active binding of this item held by exactly this worker at exactly this generation. */
export function activeBindingOf(
  db: Db,
  who: { worker: string; generation: number },
  item: string,
): Binding | undefined {
  return statement(
    db,
    `SELECT ${COLUMNS} FROM bindings WHERE item = ? AND worker = ? AND generation = ? AND state = 'active'`,
  ).get(item, who.worker, who.generation) as Binding | undefined;
}

export function listBindingsForItem(db: Db, item: string): Binding[] {
  return statement(db, `SELECT ${COLUMNS} FROM bindings WHERE item = ? ORDER BY rowid`).all(item) as Binding[];
}

export function resolveBinding(tx: Tx, id: string): void {
  statement(tx.db, "UPDATE bindings SET state = 'resolved', resolved_at = ? WHERE id = ? AND state = 'active'").run(
    tx.now,
    id,
  );
}

/**
 * A human edit or reply moves the worker's accepted revision forward with the item (docs/decisions/item-reports.md).
 */
export function moveAcceptedRevision(tx: Tx, id: string, revision: number): void {
  statement(tx.db, "UPDATE bindings SET accepted_revision = ? WHERE id = ? AND state = 'active'").run(revision, id);
}

/**
 * Respawn: moves the worker's active bindings, and the active dispatches that carry them, to `generation`.
 * Must run inside the respawn command so the old process is fenced and the new one owns the work atomically.
 * Returns the ids of the bindings moved.
 */
export function moveBindingsToGeneration(tx: Tx, worker: string, generation: number): string[] {
  const moved = statement(
    tx.db,
    "UPDATE bindings SET generation = ? WHERE worker = ? AND state = 'active' RETURNING id, dispatch",
  ).all(generation, worker) as { id: string; dispatch: string }[];
  const dispatches = [...new Set(moved.map((m) => m.dispatch))];
  const bump = statement(tx.db, "UPDATE dispatches SET generation = ? WHERE id = ? AND state = 'active'");
  for (const d of dispatches) bump.run(generation, d);
  return moved.map((m) => m.id).sort(byNumber);
}

function byNumber(a: string, b: string): number {
  return Number(a.replace(/\D/g, "")) - Number(b.replace(/\D/g, ""));
}

/** Items each worker holds through an active binding, in item order: the fleet page's "items" column. */
export function activeItemsByWorker(db: Db): Map<string, string[]> {
  const rows = statement(
    db,
    "SELECT worker, item FROM bindings WHERE state = 'active' ORDER BY worker, item",
  ).all() as { worker: string; item: string }[];
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.worker, [...(out.get(r.worker) ?? []), r.item]);
  return out;
}
