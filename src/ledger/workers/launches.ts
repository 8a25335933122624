// Launch records and fleet reads: one launches row per worker generation, listings, live counts, open questions.
// The exit of a launch is recorded on that generation's row only, so a stale process can never touch the new one.

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { hashRunToken, type WorkerRow } from "./workers.js";
import { statement } from "../core/statements.js";

export interface LaunchRow {
  worker: string;
  generation: number;
  run_token_hash: string;
  started_at: string;
  exited_at: string | null;
  exit_code: number | null;
}

export function insertLaunch(tx: Tx, worker: string, generation: number, runToken: string): void {
  statement(tx.db, "INSERT INTO launches (worker, generation, run_token_hash, started_at) VALUES (?, ?, ?, ?)").run(worker, generation, hashRunToken(runToken), tx.now);
}

/**
 * Records the exit on (worker, generation) when the run token matches (any token when none is given);
 * false when it does not or it was recorded.
 */
export function recordLaunchExit(tx: Tx, worker: string, generation: number, runToken: string | undefined, code: number): boolean {
  const hash = runToken === undefined ? null : hashRunToken(runToken);
  return (
    statement(tx.db, "UPDATE launches SET exited_at = ?, exit_code = ? WHERE worker = ? AND generation = ? AND (? IS NULL OR run_token_hash = ?) AND exited_at IS NULL")
      .run(tx.now, code, worker, generation, hash, hash).changes > 0
  );
}

export function listLaunches(db: Db, worker: string): LaunchRow[] {
  return statement(db, "SELECT * FROM launches WHERE worker = ? ORDER BY generation").all(worker) as LaunchRow[];
}

export function listWorkerRows(db: Db, options: { projectRoot?: string } = {}): WorkerRow[] {
  if (options.projectRoot !== undefined) {
    return statement(db, "SELECT * FROM workers WHERE deleted_at IS NULL AND project_root = ? ORDER BY seq").all(options.projectRoot) as WorkerRow[];
  }
  return statement(db, "SELECT * FROM workers WHERE deleted_at IS NULL ORDER BY seq").all() as WorkerRow[];
}


export function openQuestionCounts(db: Db): Map<string, number> {
  const rows = statement(db, "SELECT worker, count(*) AS n FROM questions WHERE state = 'open' GROUP BY worker").all() as { worker: string; n: number }[];
  return new Map(rows.map((r) => [r.worker, r.n]));
}

export interface QuestionRow {
  id: string;
  worker: string;
  generation: number;
  text: string;
  state: "open" | "answered" | "dropped";
}

export function getQuestion(db: Db, id: string): QuestionRow | undefined {
  return statement(db, "SELECT id, worker, generation, text, state FROM questions WHERE id = ?").get(id) as QuestionRow | undefined;
}

export function openQuestionsOf(db: Db, worker: string): QuestionRow[] {
  return statement(db, "SELECT id, worker, generation, text, state FROM questions WHERE worker = ? AND state = 'open' ORDER BY rowid").all(worker) as QuestionRow[];
}

/** Answers one open question; false when it was not open. */
export function answerQuestion(tx: Tx, id: string, answer: string): boolean {
  return statement(tx.db, "UPDATE questions SET state = 'answered', answer = ?, answered_at = ? WHERE id = ? AND state = 'open'").run(answer, tx.now, id).changes > 0;
}
