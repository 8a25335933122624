// Spend rows: tokens and cost summed per worker, generation, version, day and model, and how far each record file was
// read. A read commits its rows and its new offset together, only from the offset it started at.

import { EMPTY_TOTALS, type SpendTotals, type Tokens } from "../../domain/workers/spend.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface SpendSourceRow {
  path: string;
  identity: string;
  offset: number;
  carry: string | null;
}

export function spendSources(db: Db, worker: string): SpendSourceRow[] {
  return statement(db, "SELECT path, identity, offset, carry FROM spend_sources WHERE worker = ?").all(
    worker,
  ) as SpendSourceRow[];
}

export interface SpendRow extends Tokens {
  generation: number;
  version: number;
  day: string;
  model: string;
  costUsd: number;
  unpriced: number;
}

export interface SpendRead {
  worker: string;
  path: string;
  /** What the read started from (absent: the file was never read). */
  from?: { identity: string; offset: number };
  identity: string;
  offset: number;
  carry: string | null;
  rows: SpendRow[];
}

/** Records one file's read; false (nothing written) when another process moved the offset first. */
export function applySpendRead(tx: Tx, read: SpendRead): boolean {
  const now = statement(tx.db, "SELECT identity, offset FROM spend_sources WHERE worker = ? AND path = ?").get(
    read.worker,
    read.path,
  ) as { identity: string; offset: number } | undefined;
  if (
    (now?.identity ?? null) !== (read.from?.identity ?? null) ||
    (now?.offset ?? null) !== (read.from?.offset ?? null)
  )
    return false;
  statement(
    tx.db,
    `INSERT INTO spend_sources (worker, path, identity, offset, carry) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(worker, path) DO UPDATE SET identity = excluded.identity, offset = excluded.offset, carry = excluded.carry`,
  ).run(read.worker, read.path, read.identity, read.offset, read.carry);
  const add = statement(
    tx.db,
    `INSERT INTO spend (worker, generation, version, day, model, input, output, cache_read, cache_write, cost_usd, unpriced)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(worker, generation, version, day, model) DO UPDATE SET input = input + excluded.input, output = output + excluded.output,
      cache_read = cache_read + excluded.cache_read, cache_write = cache_write + excluded.cache_write,
      cost_usd = cost_usd + excluded.cost_usd, unpriced = unpriced + excluded.unpriced`,
  );
  for (const r of read.rows)
    add.run(
      read.worker,
      r.generation,
      r.version,
      r.day,
      r.model,
      r.input,
      r.output,
      r.cacheRead,
      r.cacheWrite,
      r.costUsd,
      r.unpriced,
    );
  return true;
}

const SUMS =
  "sum(input) AS input, sum(output) AS output, sum(cache_read) AS cache_read, sum(cache_write) AS cache_write, sum(cost_usd) AS cost_usd, sum(unpriced) AS unpriced";

interface SumRow {
  input: number | null;
  output: number | null;
  cache_read: number | null;
  cache_write: number | null;
  cost_usd: number | null;
  unpriced: number | null;
}

export function totalsOf(r: SumRow | undefined): SpendTotals {
  if (!r || r.input === null) return { ...EMPTY_TOTALS };
  const t = { input: r.input, output: r.output ?? 0, cacheRead: r.cache_read ?? 0, cacheWrite: r.cache_write ?? 0 };
  return {
    ...t,
    total: t.input + t.output + t.cacheRead + t.cacheWrite,
    costUsd: r.cost_usd ?? 0,
    unpriced: r.unpriced ?? 0,
  };
}

/** Every worker's totals (one grouped scan of the spend table). */
export function spendByWorker(db: Db): Map<string, SpendTotals> {
  const rows = statement(db, `SELECT worker, ${SUMS} FROM spend GROUP BY worker`).all() as (SumRow & {
    worker: string;
  })[];
  return new Map(rows.map((r) => [r.worker, totalsOf(r)]));
}

/** One worker's totals per generation and per version. */
export function workerSpendRows(
  db: Db,
  worker: string,
): { generations: Map<number, SpendTotals>; versions: Map<number, SpendTotals> } {
  const gens = statement(db, `SELECT generation AS k, ${SUMS} FROM spend WHERE worker = ? GROUP BY generation`).all(
    worker,
  ) as (SumRow & { k: number })[];
  const vers = statement(db, `SELECT version AS k, ${SUMS} FROM spend WHERE worker = ? GROUP BY version`).all(
    worker,
  ) as (SumRow & { k: number })[];
  return {
    generations: new Map(gens.map((r) => [r.k, totalsOf(r)])),
    versions: new Map(vers.map((r) => [r.k, totalsOf(r)])),
  };
}

export type SpendGroup = "worker" | "item" | "kind" | "day";

/** Totals grouped by worker, the worker's kind, the day, or the items dispatched to the worker (a worker's spend counts toward each). */
export function spendGrouped(
  db: Db,
  by: SpendGroup,
  sinceDay: string | undefined,
): { key: string; totals: SpendTotals }[] {
  const since = sinceDay ?? "";
  const sql =
    by === "worker"
      ? `SELECT s.worker AS k, ${SUMS} FROM spend s WHERE s.day >= ? GROUP BY s.worker`
      : by === "day"
        ? `SELECT s.day AS k, ${SUMS} FROM spend s WHERE s.day >= ? GROUP BY s.day`
        : by === "kind"
          ? `SELECT w.kind AS k, ${SUMS.replace(/sum\((\w+)\)/g, "sum(s.$1)")} FROM spend s JOIN workers w ON w.id = s.worker WHERE s.day >= ? GROUP BY w.kind`
          : `SELECT b.item AS k, ${SUMS.replace(/sum\((\w+)\)/g, "sum(s.$1)")} FROM spend s JOIN (SELECT DISTINCT worker, item FROM bindings) b ON b.worker = s.worker WHERE s.day >= ? GROUP BY b.item`;
  const rows = statement(db, sql).all(since) as (SumRow & { k: string })[];
  return rows
    .map((r) => ({ key: String(r.k), totals: totalsOf(r) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export interface BudgetRow {
  budgetUsd: number | null;
  warnedAt: string | null;
  stoppedAt: string | null;
}

export function budgetOf(db: Db, worker: string): BudgetRow {
  const r = statement(db, "SELECT budget_usd, budget_warned_at, budget_stopped_at FROM workers WHERE id = ?").get(
    worker,
  ) as { budget_usd: number | null; budget_warned_at: string | null; budget_stopped_at: string | null } | undefined;
  return {
    budgetUsd: r?.budget_usd ?? null,
    warnedAt: r?.budget_warned_at ?? null,
    stoppedAt: r?.budget_stopped_at ?? null,
  };
}

/** Sets a worker's budget and forgets the thresholds it crossed (a new budget starts its own 80 % and 100 %). */
export function setBudget(tx: Tx, worker: string, budgetUsd: number | null): void {
  statement(
    tx.db,
    "UPDATE workers SET budget_usd = ?, budget_warned_at = NULL, budget_stopped_at = NULL WHERE id = ?",
  ).run(budgetUsd, worker);
}

/** Workers with a budget not yet spent whose agent still runs: what a long-lived process checks each round. */
export function runningBudgetedWorkers(db: Db): string[] {
  return (
    statement(
      db,
      "SELECT id FROM workers WHERE budget_usd IS NOT NULL AND budget_stopped_at IS NULL AND exited = 0 ORDER BY id",
    ).all() as { id: string }[]
  ).map((r) => r.id);
}

export function markBudget(tx: Tx, worker: string, step: "warn" | "stop"): boolean {
  const col = step === "warn" ? "budget_warned_at" : "budget_stopped_at";
  return (
    statement(tx.db, `UPDATE workers SET ${col} = ? WHERE id = ? AND ${col} IS NULL`).run(tx.now, worker).changes > 0
  );
}
