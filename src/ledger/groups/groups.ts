// Best-of-N groups in SQL: the group row, its candidates in spawn order, the comparison last shown and the choice.
// Rows change only inside their commands; a group's id comes from its own counter and is never reused.

import { formatGroupId, GROUP_COUNTER } from "../../domain/groups/group-ids.js";
import type { ShownCandidate } from "../../domain/groups/choice.js";
import type { ShownSurface } from "../../domain/review/shown-binding.js";
import { jsonColumn } from "../core/json-columns.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface WorkerGroup {
  id: string;
  task: string;
  projectRoot: string;
  size: number;
  budgetUsd: number | null;
  budgetWarnedAt: string | null;
  budgetStoppedAt: string | null;
  shown: ShownCandidate[] | null;
  shownSurface: ShownSurface | null;
  shownAt: string | null;
  chosenRef: string | null;
  chosenDecision: string | null;
  chosenAt: string | null;
  createdAt: string;
  /** Its candidates' worker ids, in spawn order. */
  workers: string[];
}

interface Row {
  id: string;
  task: string;
  project_root: string;
  size: number;
  budget_usd: number | null;
  budget_warned_at: string | null;
  budget_stopped_at: string | null;
  shown: string | null;
  shown_surface: ShownSurface | null;
  shown_at: string | null;
  chosen_ref: string | null;
  chosen_decision: string | null;
  chosen_at: string | null;
  created_at: string;
}

const isShown = (v: unknown): ShownCandidate[] | undefined =>
  Array.isArray(v) &&
  v.every(
    (s: unknown) =>
      typeof s === "object" &&
      s !== null &&
      typeof (s as ShownCandidate).worker === "string" &&
      ((s as ShownCandidate).ref === null || typeof (s as ShownCandidate).ref === "string") &&
      ((s as ShownCandidate).sha256 === null || typeof (s as ShownCandidate).sha256 === "string"),
  )
    ? (v as ShownCandidate[])
    : undefined;

function fromRow(db: Db, r: Row): WorkerGroup {
  return {
    id: r.id,
    task: r.task,
    projectRoot: r.project_root,
    size: r.size,
    budgetUsd: r.budget_usd,
    budgetWarnedAt: r.budget_warned_at,
    budgetStoppedAt: r.budget_stopped_at,
    shown:
      r.shown === null ? null : jsonColumn(r.shown, isShown, { table: "worker_groups", column: "shown", id: r.id }),
    shownSurface: r.shown_surface,
    shownAt: r.shown_at,
    chosenRef: r.chosen_ref,
    chosenDecision: r.chosen_decision,
    chosenAt: r.chosen_at,
    createdAt: r.created_at,
    workers: candidatesOf(db, r.id),
  };
}

export interface NewGroup {
  task: string;
  projectRoot: string;
  size: number;
  budgetUsd?: number;
}

/** Claims the next `b<N>` and writes the group row (its candidates are added as each one is spawned). */
export function insertGroup(tx: Tx, g: NewGroup): string {
  const seq = tx.next(GROUP_COUNTER);
  const id = formatGroupId(seq);
  statement(
    tx.db,
    `INSERT INTO worker_groups (id, seq, task, project_root, size, budget_usd, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, seq, g.task, g.projectRoot, g.size, g.budgetUsd ?? null, tx.now);
  return id;
}

export function insertCandidate(tx: Tx, group: string, position: number, worker: string): void {
  statement(tx.db, "INSERT INTO group_candidates (group_id, position, worker) VALUES (?, ?, ?)").run(
    group,
    position,
    worker,
  );
}

function candidatesOf(db: Db, group: string): string[] {
  return (
    statement(db, "SELECT worker FROM group_candidates WHERE group_id = ? ORDER BY position").all(group) as {
      worker: string;
    }[]
  ).map((r) => r.worker);
}

export function getGroup(db: Db, id: string): WorkerGroup | undefined {
  const r = statement(db, "SELECT * FROM worker_groups WHERE id = ?").get(id) as Row | undefined;
  return r ? fromRow(db, r) : undefined;
}

/** The group a worker is a candidate of, if any. */
export function groupOfWorker(db: Db, worker: string): string | undefined {
  const r = statement(db, "SELECT group_id FROM group_candidates WHERE worker = ?").get(worker) as
    | { group_id: string }
    | undefined;
  return r?.group_id;
}

/** Groups of one project (every project when null), oldest first. */
export function listGroups(db: Db, projectRoot: string | null): WorkerGroup[] {
  const rows = (
    projectRoot === null
      ? statement(db, "SELECT * FROM worker_groups ORDER BY seq").all()
      : statement(db, "SELECT * FROM worker_groups WHERE project_root = ? ORDER BY seq").all(projectRoot)
  ) as Row[];
  return rows.map((r) => fromRow(db, r));
}

/** Groups with a budget not yet stopped and no choice made: the ones the budget timer checks. */
export function budgetedGroups(db: Db): WorkerGroup[] {
  const rows = statement(
    db,
    "SELECT * FROM worker_groups WHERE budget_usd IS NOT NULL AND budget_stopped_at IS NULL AND chosen_ref IS NULL ORDER BY seq",
  ).all() as Row[];
  return rows.map((r) => fromRow(db, r));
}

export function recordGroupShown(tx: Tx, group: string, shown: readonly ShownCandidate[], surface: ShownSurface): void {
  statement(tx.db, "UPDATE worker_groups SET shown = ?, shown_surface = ?, shown_at = ? WHERE id = ?").run(
    JSON.stringify(shown),
    surface,
    tx.now,
    group,
  );
}

export function recordChoice(tx: Tx, group: string, ref: string, decision: string): void {
  statement(
    tx.db,
    "UPDATE worker_groups SET chosen_ref = ?, chosen_decision = ?, chosen_at = ? WHERE id = ? AND chosen_ref IS NULL",
  ).run(ref, decision, tx.now, group);
}

/** Marks a budget threshold once; true when this call marked it (false: it was marked before). */
export function markGroupBudget(tx: Tx, group: string, step: "warn" | "stop"): boolean {
  const column = step === "warn" ? "budget_warned_at" : "budget_stopped_at";
  return (
    statement(tx.db, `UPDATE worker_groups SET ${column} = ? WHERE id = ? AND ${column} IS NULL`).run(tx.now, group)
      .changes > 0
  );
}
