// Obligations: what an active binding owes (a report), due at a time, parkable; resolved by the report that paid it.
// "Due" means owed, due_at reached, and not parked past now; a blocked report makes it due now and unparks it
// (docs/decisions/item-reports.md).

import { formatId } from "../../domain/ids.js";
import { notFound, refusal } from "../../domain/errors.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface Obligation {
  id: string;
  binding: string;
  item: string;
  worker: string;
  state: "owed" | "resolved";
  dueAt: string;
  parkedUntil: string | null;
  disposition: string | null;
  createdAt: string;
  resolvedAt: string | null;
}

const COLUMNS =
  "id, binding, item, worker, state, due_at AS dueAt, parked_until AS parkedUntil, disposition, created_at AS createdAt, resolved_at AS resolvedAt";

export function insertObligation(tx: Tx, o: { binding: string; item: string; worker: string; dueAt: string }): string {
  const id = formatId("obligation", tx.next("obligation"));
  statement(
    tx.db,
    "INSERT INTO obligations (id, binding, item, worker, state, due_at, created_at) VALUES (?, ?, ?, ?, 'owed', ?, ?)",
  ).run(id, o.binding, o.item, o.worker, o.dueAt, tx.now);
  return id;
}

export function requireObligation(db: Db, id: string): Obligation {
  const row = statement(db, `SELECT ${COLUMNS} FROM obligations WHERE id = ?`).get(id) as Obligation | undefined;
  if (!row)
    throw notFound("obligation-not-found", `no obligation ${id}`, "run `docket obligations --all` to see obligations");
  return row;
}

/** A blocked report: the debt is due now and any park on it is cleared. */
export function makeObligationDueNow(tx: Tx, binding: string): void {
  statement(tx.db, "UPDATE obligations SET due_at = ?, parked_until = NULL WHERE binding = ? AND state = 'owed'").run(
    tx.now,
    binding,
  );
}

/** Resolves the binding's obligation; the disposition is the id of the report that paid it. */
export function resolveObligation(tx: Tx, binding: string, reportId: string): void {
  statement(
    tx.db,
    "UPDATE obligations SET state = 'resolved', disposition = ?, resolved_at = ? WHERE binding = ? AND state = 'owed'",
  ).run(reportId, tx.now, binding);
}

export function parkObligation(tx: Tx, id: string, until: string): Obligation {
  const row = requireObligation(tx.db, id);
  if (row.state !== "owed")
    throw refusal("obligation-resolved", `${id} is already resolved by ${row.disposition}; nothing to park`);
  statement(tx.db, "UPDATE obligations SET parked_until = ? WHERE id = ?").run(until, id);
  return requireObligation(tx.db, id);
}

export function unparkObligation(tx: Tx, id: string): Obligation {
  const row = requireObligation(tx.db, id);
  if (row.state !== "owed")
    throw refusal("obligation-resolved", `${id} is already resolved by ${row.disposition}; nothing to unpark`);
  statement(tx.db, "UPDATE obligations SET parked_until = NULL WHERE id = ?").run(id);
  return requireObligation(tx.db, id);
}

export type ObligationFilter = { scope: "owed" } | { scope: "all" } | { scope: "due"; now: string };

export function listObligations(db: Db, filter: ObligationFilter): Obligation[] {
  const order = "ORDER BY due_at, CAST(substr(id, 2) AS INTEGER)";
  if (filter.scope === "all")
    return statement(
      db,
      `SELECT ${COLUMNS} FROM obligations ORDER BY CAST(substr(id, 2) AS INTEGER)`,
    ).all() as Obligation[];
  if (filter.scope === "owed")
    return statement(db, `SELECT ${COLUMNS} FROM obligations WHERE state = 'owed' ${order}`).all() as Obligation[];
  return statement(
    db,
    `SELECT ${COLUMNS} FROM obligations WHERE state = 'owed' AND due_at <= @now AND (parked_until IS NULL OR parked_until <= @now) ${order}`,
  ).all({ now: filter.now }) as Obligation[];
}
