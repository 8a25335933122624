// Chips for the parent: a full, immutable deliverable body queued for the human's next prompt (Use → Parent).
// A chip is queued, then consumed by the parent session or dropped by the human; its body never changes.

import { notFound, refusal } from "../../domain/errors.js";
import { formatId } from "../../domain/ids.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export type ChipState = "queued" | "consumed" | "dropped";

export interface Chip {
  id: string;
  worker: string | null;
  ref: string;
  projectRoot: string;
  body: string;
  decision: string | null;
  state: ChipState;
  createdAt: string;
  consumedAt: string | null;
  droppedAt: string | null;
}

interface ChipRow {
  id: string;
  seq: number;
  worker: string | null;
  ref: string;
  project_root: string;
  body: string;
  decision: string | null;
  state: ChipState;
  created_at: string;
  consumed_at: string | null;
  dropped_at: string | null;
}

const fromRow = (r: ChipRow): Chip => ({
  id: r.id,
  worker: r.worker,
  ref: r.ref,
  projectRoot: r.project_root,
  body: r.body,
  decision: r.decision,
  state: r.state,
  createdAt: r.created_at,
  consumedAt: r.consumed_at,
  droppedAt: r.dropped_at,
});

export function insertChip(
  tx: Tx,
  c: { worker?: string | null; ref: string; projectRoot: string; body: string; decision?: string | null },
): Chip {
  const seq = tx.next("chip");
  const id = formatId("chip", seq);
  statement(
    tx.db,
    "INSERT INTO chips (id, seq, worker, ref, project_root, body, decision, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?)",
  ).run(id, seq, c.worker ?? null, c.ref, c.projectRoot, c.body, c.decision ?? null, tx.now);
  return {
    id,
    worker: c.worker ?? null,
    ref: c.ref,
    projectRoot: c.projectRoot,
    body: c.body,
    decision: c.decision ?? null,
    state: "queued",
    createdAt: tx.now,
    consumedAt: null,
    droppedAt: null,
  };
}

export function queuedChipFor(db: Db, ref: string, projectRoot: string): Chip | undefined {
  const r = statement(
    db,
    "SELECT * FROM chips WHERE ref = ? AND project_root = ? AND state = 'queued' ORDER BY seq LIMIT 1",
  ).get(ref, projectRoot) as ChipRow | undefined;
  return r ? fromRow(r) : undefined;
}

export function listChips(db: Db, options: { projectRoot?: string; all?: boolean }): Chip[] {
  const where: string[] = [];
  const args: string[] = [];
  if (!options.all) where.push("state = 'queued'");
  if (options.projectRoot !== undefined) {
    where.push("project_root = ?");
    args.push(options.projectRoot);
  }
  const sql = `SELECT * FROM chips ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq`;
  return (statement(db, sql).all(...args) as ChipRow[]).map(fromRow);
}

export function requireChip(db: Db, id: string): Chip {
  const r = statement(db, "SELECT * FROM chips WHERE id = ?").get(id) as ChipRow | undefined;
  if (!r) throw notFound("chip-not-found", `no chip ${id}`, "run `docket chips` to see queued chips");
  return fromRow(r);
}

/** Drops a queued chip; a consumed or dropped chip is refused. */
export function dropChip(tx: Tx, id: string): Chip {
  const chip = requireChip(tx.db, id);
  if (chip.state !== "queued") throw refusal("chip-not-queued", `chip ${id} is already ${chip.state}; nothing to drop`);
  statement(tx.db, "UPDATE chips SET state = 'dropped', dropped_at = ? WHERE id = ?").run(tx.now, id);
  return { ...chip, state: "dropped", droppedAt: tx.now };
}

/** Marks every queued chip of a project consumed (the parent session's next prompt took them) and returns them. */
export function consumeChips(tx: Tx, projectRoot: string): Chip[] {
  const rows = statement(
    tx.db,
    "UPDATE chips SET state = 'consumed', consumed_at = ? WHERE state = 'queued' AND project_root = ? RETURNING *",
  ).all(tx.now, projectRoot) as ChipRow[];
  return rows.map(fromRow).sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
}

/** The chips queued for a project's next prompt, ids, refs and sizes only (bodies stay in the ledger). */
export function queuedChipSizes(db: Db, projectRoot: string): { id: string; ref: string; bytes: number }[] {
  return statement(
    db,
    "SELECT id, ref, length(CAST(body AS BLOB)) AS bytes FROM chips WHERE state = 'queued' AND project_root = ? ORDER BY seq",
  ).all(projectRoot) as { id: string; ref: string; bytes: number }[];
}

/** Whether a project has queued chips: a cheap read, so an ordinary prompt costs no write. */
export function hasQueuedChips(db: Db, projectRoot: string): boolean {
  return (
    statement(db, "SELECT 1 FROM chips WHERE state = 'queued' AND project_root = ? LIMIT 1").get(projectRoot) !==
    undefined
  );
}
