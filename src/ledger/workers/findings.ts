// Worker findings: what an observer saw about one generation (blocked, stuck, refused) and when it stopped being so.
// Each is written by the command that found it; display states read the open ones (domain/workers/lifecycle.ts).

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export type FindingKind = "blocked" | "stuck" | "refused";

export interface Finding {
  worker: string;
  generation: number;
  kind: FindingKind;
  text: string;
  foundAt: string;
}

interface FindingRow {
  worker: string;
  generation: number;
  kind: FindingKind;
  text: string;
  found_at: string;
}

const toFinding = (r: FindingRow): Finding => ({
  worker: r.worker,
  generation: r.generation,
  kind: r.kind,
  text: r.text,
  foundAt: r.found_at,
});

/** Every open finding of the workers' current generations, newest last. */
export function openFindings(db: Db): Finding[] {
  return (
    statement(
      db,
      `SELECT f.worker, f.generation, f.kind, f.text, f.found_at FROM worker_findings f
         JOIN workers w ON w.id = f.worker AND w.generation = f.generation
        WHERE f.cleared_at IS NULL ORDER BY f.id`,
    ).all() as FindingRow[]
  ).map(toFinding);
}

/** One worker's open findings of its current generation. */
export function openFindingsOf(db: Db, worker: string): Finding[] {
  return openFindings(db).filter((f) => f.worker === worker);
}

export function insertFinding(tx: Tx, f: Omit<Finding, "foundAt">): void {
  statement(tx.db, "INSERT INTO worker_findings (worker, generation, kind, text, found_at) VALUES (?, ?, ?, ?, ?)").run(
    f.worker,
    f.generation,
    f.kind,
    f.text,
    tx.now,
  );
}

/** Clears the worker's open findings of these kinds; how many were open. */
export function clearFindings(tx: Tx, worker: string, kinds: readonly FindingKind[]): number {
  let n = 0;
  for (const kind of kinds)
    n += statement(
      tx.db,
      "UPDATE worker_findings SET cleared_at = ? WHERE worker = ? AND kind = ? AND cleared_at IS NULL",
    ).run(tx.now, worker, kind).changes;
  return n;
}

/** Replaces the text of the worker's open finding of this kind (the same finding, newer words). */
export function rewordFinding(tx: Tx, worker: string, kind: FindingKind, text: string): number {
  return statement(
    tx.db,
    "UPDATE worker_findings SET text = ? WHERE worker = ? AND kind = ? AND cleared_at IS NULL",
  ).run(text, worker, kind).changes;
}
