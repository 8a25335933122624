// Launch records and fleet reads: one launches row per worker generation, listings, live counts, open questions.
// The exit of a launch is recorded on that generation's row only, so a stale process can never touch the new one.

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import type { PersistedState } from "../../domain/workers/lifecycle.js";
import type { WorkerAgent } from "../../domain/workers/spawn-policy.js";
import { jsonColumn, stringList } from "../core/json-columns.js";
import { isSourceHandoff, type SourceHandoff } from "../../domain/deliverables/deliverable.js";
import type { Worker } from "../../domain/workers/worker.js";
import { hashRunToken, workerFromRow, type WorkerRow } from "./workers.js";
import { statement } from "../core/statements.js";

export interface Launch {
  worker: string;
  generation: number;
  startedAt: string;
  exitedAt: string | null;
  exitCode: number | null;
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

export function listLaunches(db: Db, worker: string): Launch[] {
  const rows = statement(db, "SELECT worker, generation, started_at, exited_at, exit_code FROM launches WHERE worker = ? ORDER BY generation").all(worker) as
    { worker: string; generation: number; started_at: string; exited_at: string | null; exit_code: number | null }[];
  return rows.map((r) => ({ worker: r.worker, generation: r.generation, startedAt: r.started_at, exitedAt: r.exited_at, exitCode: r.exit_code }));
}


/** Live (not deleted) workers, of one project or all, in label order. */
export function workersOf(db: Db, options: { projectRoot?: string } = {}): Worker[] {
  const rows = options.projectRoot !== undefined
    ? statement(db, "SELECT * FROM workers WHERE deleted_at IS NULL AND project_root = ? ORDER BY seq").all(options.projectRoot)
    : statement(db, "SELECT * FROM workers WHERE deleted_at IS NULL ORDER BY seq").all();
  return (rows as WorkerRow[]).map(workerFromRow);
}

/** What the fleet cap reads of a worker that may still run: not exited, not failed or ended, pane not yet captured. */
export interface StartingOrRunning {
  id: string;
  paneId: string | null;
  state: PersistedState;
  exited: boolean;
  windowId: string | null;
  updatedAt: string;
  pid: number | null;
  reviewedAt: string | null;
  /** The host it runs on over ssh; null: this machine (its pane is in this machine's listing). */
  host: string | null;
}

export function possiblyLiveWorkers(db: Db): StartingOrRunning[] {
  const rows = statement(db, "SELECT id, pane_id, state, exited, window_id, updated_at, pid, reviewed_at, CASE WHEN json_valid(execution) THEN json_extract(execution, '$.host') END AS host FROM workers WHERE deleted_at IS NULL AND exited = 0 AND pane_captured_at IS NULL AND state NOT IN ('failed','ended') ORDER BY seq")
    .all() as { id: string; pane_id: string | null; state: PersistedState; exited: number; window_id: string | null; updated_at: string; pid: number | null; reviewed_at: string | null; host: unknown }[];
  return rows.map((r) => ({
    id: r.id, paneId: r.pane_id, state: r.state, exited: r.exited === 1, windowId: r.window_id, updatedAt: r.updated_at, pid: r.pid, reviewedAt: r.reviewed_at,
    host: typeof r.host === "string" ? r.host : null,
  }));
}

/** The columns the parent's dock shows of one worker (read on every ledger change: only these, through a cached statement). */
export interface DockWorker {
  id: string;
  kind: string;
  task: string;
  agent: WorkerAgent;
  state: PersistedState;
  exited: boolean;
  heartbeatAt: string | null;
  updatedAt: string;
  reviewedAt: string | null;
  paneCapturedAt: string | null;
  generation: number;
  deliverableVersion: number | null;
  deliverableRef: string | null;
  createdAt: string;
  projectRoot: string;
  sourceHandoff: SourceHandoff | null;
  contained: boolean;
  /** The host it runs on over ssh (issue 26); null: this machine. */
  host: string | null;
}

const DOCK_SQL = `SELECT id, kind, task, agent, state, exited, heartbeat_at, updated_at, reviewed_at, pane_captured_at, generation,
  deliverable_version, deliverable_ref, created_at, project_root, source_handoff, contained,
  CASE WHEN json_valid(execution) THEN json_extract(execution, '$.host') END AS host FROM workers WHERE deleted_at IS NULL AND project_root = ? ORDER BY seq`;

export function dockWorkers(db: Db, projectRoot: string): DockWorker[] {
  const rows = statement(db, DOCK_SQL).all(projectRoot) as {
    id: string; kind: string; task: string; agent: WorkerAgent; state: PersistedState; exited: number; heartbeat_at: string | null; updated_at: string;
    reviewed_at: string | null; pane_captured_at: string | null; generation: number; deliverable_version: number | null; deliverable_ref: string | null;
    created_at: string; project_root: string; source_handoff: string | null; contained: number; host: unknown;
  }[];
  return rows.map((r) => ({
    id: r.id, kind: r.kind, task: r.task, agent: r.agent, state: r.state, exited: r.exited === 1, heartbeatAt: r.heartbeat_at, updatedAt: r.updated_at,
    reviewedAt: r.reviewed_at, paneCapturedAt: r.pane_captured_at, generation: r.generation, deliverableVersion: r.deliverable_version,
    deliverableRef: r.deliverable_ref, createdAt: r.created_at, projectRoot: r.project_root, contained: r.contained === 1,
    host: typeof r.host === "string" ? r.host : null,
    sourceHandoff: r.source_handoff === null ? null
      : jsonColumn(r.source_handoff, (v) => (isSourceHandoff(v) ? v : undefined), { table: "workers", column: "source_handoff", id: r.id }),
  }));
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
  createdAt: string;
}

export function getQuestion(db: Db, id: string): QuestionRow | undefined {
  return statement(db, "SELECT id, worker, generation, text, state FROM questions WHERE id = ?").get(id) as QuestionRow | undefined;
}

export function openQuestionsOf(db: Db, worker: string): QuestionRow[] {
  return statement(db, "SELECT id, worker, generation, text, state, created_at AS createdAt FROM questions WHERE worker = ? AND state = 'open' ORDER BY rowid").all(worker) as QuestionRow[];
}

export interface QuestionDetail {
  /** The options offered; a malformed column shows as a question without options. */
  options: string[];
  recommend: string | null;
  risk: string | null;
  /** Asked through docket_consult: who holds it now, the worker's context, and why it was escalated to the human. */
  consult: { audience: "human" | "parent-agent"; context: string | null; escalation: string | null } | null;
}

export function questionDetail(db: Db, id: string): QuestionDetail | undefined {
  const row = statement(db, "SELECT options, recommend, risk, consult, audience, context, escalation FROM questions WHERE id = ?").get(id) as {
    options: string; recommend: string | null; risk: string | null; consult: number; audience: "human" | "parent-agent"; context: string | null; escalation: string | null;
  } | undefined;
  if (!row) return undefined;
  const consult = row.consult === 1 ? { audience: row.audience, context: row.context, escalation: row.escalation } : null;
  return { options: stringList(row.options) ?? [], recommend: row.recommend, risk: row.risk, consult };
}

/** Answers one open question; false when it was not open. */
export function answerQuestion(tx: Tx, id: string, answer: string): boolean {
  return statement(tx.db, "UPDATE questions SET state = 'answered', answer = ?, answered_at = ? WHERE id = ? AND state = 'open'").run(answer, tx.now, id).changes > 0;
}
