// The questions table, and nothing else owns it: questions a worker asks (docket_wait) and consults (docket_consult),
// how they are answered, dropped by a later done or escalated out of the parent agent's lane
// (docs/decisions/authority.md). A consult leaves the lane exactly once: answered, escalated, or dropped.

import { formatId } from "../../domain/ids.js";
import { asStringList, jsonColumn, stringList } from "../core/json-columns.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

/** SQL for the number of open questions of the worker in `workerColumn`, for reads that join it beside other columns. */
export const openQuestionCountSql = (workerColumn: string): string =>
  `(SELECT count(*) FROM questions q WHERE q.worker = ${workerColumn} AND q.state = 'open')`;

export interface NewQuestion {
  worker: string;
  generation: number;
  text: string;
  options: string[];
  recommend?: string;
  risk?: string;
  /** A consult (docket_consult): asked of the parent agent when the human opted in, else of the human. */
  consult?: { audience: "human" | "parent-agent"; context?: string };
}

export function insertQuestion(tx: Tx, q: NewQuestion): string {
  const id = formatId("question", tx.next("question"));
  statement(
    tx.db,
    `INSERT INTO questions (id, worker, generation, text, options, recommend, risk, state, created_at, consult, audience, context)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?)`,
  ).run(
    id,
    q.worker,
    q.generation,
    q.text,
    JSON.stringify(q.options),
    q.recommend ?? null,
    q.risk ?? null,
    tx.now,
    q.consult ? 1 : 0,
    q.consult?.audience ?? "human",
    q.consult?.context ?? null,
  );
  return id;
}

/** Open questions are settled by a later done: the worker moved on without an answer. */
export function dropOpenQuestions(tx: Tx, worker: string): number {
  return statement(
    tx.db,
    "UPDATE questions SET state = 'dropped', answered_at = ? WHERE worker = ? AND state = 'open'",
  ).run(tx.now, worker).changes;
}

export function openQuestions(db: Db, worker: string): { id: string; text: string }[] {
  return statement(
    db,
    "SELECT id, text FROM questions WHERE worker = ? AND state = 'open' ORDER BY created_at, id",
  ).all(worker) as { id: string; text: string }[];
}

export function openQuestionCounts(db: Db): Map<string, number> {
  const rows = statement(
    db,
    "SELECT worker, count(*) AS n FROM questions WHERE state = 'open' GROUP BY worker",
  ).all() as { worker: string; n: number }[];
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
  return statement(db, "SELECT id, worker, generation, text, state FROM questions WHERE id = ?").get(id) as
    | QuestionRow
    | undefined;
}

export function openQuestionsOf(db: Db, worker: string): QuestionRow[] {
  return statement(
    db,
    "SELECT id, worker, generation, text, state, created_at AS createdAt FROM questions WHERE worker = ? AND state = 'open' ORDER BY rowid",
  ).all(worker) as QuestionRow[];
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
  const row = statement(
    db,
    "SELECT options, recommend, risk, consult, audience, context, escalation FROM questions WHERE id = ?",
  ).get(id) as
    | {
        options: string;
        recommend: string | null;
        risk: string | null;
        consult: number;
        audience: "human" | "parent-agent";
        context: string | null;
        escalation: string | null;
      }
    | undefined;
  if (!row) return undefined;
  const consult =
    row.consult === 1 ? { audience: row.audience, context: row.context, escalation: row.escalation } : null;
  return { options: stringList(row.options) ?? [], recommend: row.recommend, risk: row.risk, consult };
}

/** Answers one open question; false when it was not open. */
export function answerQuestion(tx: Tx, id: string, answer: string): boolean {
  return (
    statement(
      tx.db,
      "UPDATE questions SET state = 'answered', answer = ?, answered_at = ? WHERE id = ? AND state = 'open'",
    ).run(answer, tx.now, id).changes > 0
  );
}

// ── consults ─────────────────────────────────────────────────────────────────────────────────────────────

export interface ConsultRow {
  id: string;
  worker: string;
  generation: number;
  text: string;
  options: string[];
  recommend: string | null;
  risk: string | null;
  context: string | null;
  createdAt: string;
  task: string;
  kind: string;
}

interface Row {
  id: string;
  worker: string;
  generation: number;
  text: string;
  options: string;
  recommend: string | null;
  risk: string | null;
  context: string | null;
  created_at: string;
  task: string;
  kind: string;
}

const fromRow = (r: Row): ConsultRow => ({
  id: r.id,
  worker: r.worker,
  generation: r.generation,
  text: r.text,
  options: jsonColumn(r.options, asStringList, { table: "questions", column: "options", id: r.id }),
  recommend: r.recommend,
  risk: r.risk,
  context: r.context,
  createdAt: r.created_at,
  task: r.task,
  kind: r.kind,
});

/** Open consults waiting for the parent agent, for this project's workers, oldest first. */
export function pendingConsults(db: Db, projectRoot: string): ConsultRow[] {
  return (
    statement(
      db,
      `SELECT q.id, q.worker, q.generation, q.text, q.options, q.recommend, q.risk, q.context, q.created_at, w.task, w.kind
      FROM questions q JOIN workers w ON w.id = q.worker
     WHERE q.audience = 'parent-agent' AND q.state = 'open' AND w.project_root = ? AND w.deleted_at IS NULL
     ORDER BY q.created_at, q.rowid`,
    ).all(projectRoot) as Row[]
  ).map(fromRow);
}

/** The open consult `id` still in the parent agent's lane, or undefined. */
export function consultInLane(db: Db, id: string): ConsultRow | undefined {
  const r = statement(
    db,
    `SELECT q.id, q.worker, q.generation, q.text, q.options, q.recommend, q.risk, q.context, q.created_at, w.task, w.kind
      FROM questions q JOIN workers w ON w.id = q.worker WHERE q.id = ? AND q.audience = 'parent-agent' AND q.state = 'open'`,
  ).get(id) as Row | undefined;
  return r && fromRow(r);
}

/** Moves one consult to the human with the reason; false when it had already left the lane. */
export function escalateQuestion(tx: Tx, id: string, reason: string): boolean {
  return (
    statement(
      tx.db,
      "UPDATE questions SET audience = 'human', escalated_at = ?, escalation = ? WHERE id = ? AND audience = 'parent-agent' AND state = 'open'",
    ).run(tx.now, reason, id).changes > 0
  );
}

/** Per worker: open questions for the human and consults still with the parent agent (the `consulting` state). */
export function openQuestionAudiences(db: Db): Map<string, { human: number; agent: number }> {
  const rows = statement(
    db,
    `SELECT worker, sum(audience = 'human') AS human, sum(audience = 'parent-agent') AS agent
      FROM questions WHERE state = 'open' GROUP BY worker`,
  ).all() as { worker: string; human: number; agent: number }[];
  return new Map(rows.map((r) => [r.worker, { human: r.human, agent: r.agent }]));
}
