// Report rows: a worker's per-item word, stored as given (evidence is typed, never graded:
// docs/decisions/item-reports.md). Inserted only inside the report command, together with every effect the outcome has.

import { isEvidenceList, type Evidence, type ReportOutcome } from "../../domain/work/report.js";
import { asStringList, asStringRecord, jsonColumn } from "../core/json-columns.js";
import { formatId } from "../../domain/ids.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface NewReport {
  item: string;
  binding: string;
  worker: string;
  generation: number;
  outcome: ReportOutcome;
  body: string;
  evidence: Evidence[];
  forHuman: string[];
  answers: Record<string, string>;
}

export interface ReportRow extends NewReport {
  id: string;
  createdAt: string;
}

export function insertReport(tx: Tx, r: NewReport): string {
  const id = formatId("report", tx.next("report"));
  statement(
    tx.db,
    `INSERT INTO reports (id, item, binding, worker, generation, outcome, body, evidence, for_human, answers, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    r.item,
    r.binding,
    r.worker,
    r.generation,
    r.outcome,
    r.body,
    JSON.stringify(r.evidence),
    JSON.stringify(r.forHuman),
    JSON.stringify(r.answers),
    tx.now,
  );
  return id;
}

/** The row as SQLite returns it: the same columns, with the lists still JSON text. */
interface RawReport extends Omit<ReportRow, "evidence" | "forHuman" | "answers" | "createdAt"> {
  evidence: string;
  for_human: string;
  answers: string;
  created_at: string;
}

const where = (r: RawReport, column: string) => ({ table: "reports", column, id: r.id });

const fromRow = (r: RawReport): ReportRow => ({
  id: r.id,
  item: r.item,
  binding: r.binding,
  worker: r.worker,
  generation: r.generation,
  outcome: r.outcome,
  body: r.body,
  evidence: jsonColumn(r.evidence, (v) => (isEvidenceList(v) ? v : undefined), where(r, "evidence")),
  forHuman: jsonColumn(r.for_human, asStringList, where(r, "for_human")),
  answers: jsonColumn(r.answers, asStringRecord, where(r, "answers")),
  createdAt: r.created_at,
});

export function listReportsForItem(db: Db, item: string): ReportRow[] {
  return (statement(db, "SELECT * FROM reports WHERE item = ? ORDER BY rowid").all(item) as RawReport[]).map(fromRow);
}

export function getReport(db: Db, id: string): ReportRow | undefined {
  const row = statement(db, "SELECT * FROM reports WHERE id = ?").get(id) as RawReport | undefined;
  return row ? fromRow(row) : undefined;
}
