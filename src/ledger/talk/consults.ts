// Consults in SQL: open questions in the parent agent's lane, and the one move out of it (escalation to the human).
// A consult leaves the lane exactly once: answered, escalated, or dropped by a later done (DESIGN §8a, issue 16 §1).

import { asStringList, jsonColumn } from "../core/json-columns.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

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
  id: r.id, worker: r.worker, generation: r.generation, text: r.text, options: jsonColumn(r.options, asStringList, { table: "questions", column: "options", id: r.id }), recommend: r.recommend,
  risk: r.risk, context: r.context, createdAt: r.created_at, task: r.task, kind: r.kind,
});

/** Open consults waiting for the parent agent, for this project's workers, oldest first. */
export function pendingConsults(db: Db, projectRoot: string): ConsultRow[] {
  return (statement(db, `SELECT q.id, q.worker, q.generation, q.text, q.options, q.recommend, q.risk, q.context, q.created_at, w.task, w.kind
      FROM questions q JOIN workers w ON w.id = q.worker
     WHERE q.audience = 'parent-agent' AND q.state = 'open' AND w.project_root = ? AND w.deleted_at IS NULL
     ORDER BY q.created_at, q.rowid`).all(projectRoot) as Row[]).map(fromRow);
}

/** The open consult `id` still in the parent agent's lane, or undefined. */
export function consultInLane(db: Db, id: string): ConsultRow | undefined {
  const r = statement(db, `SELECT q.id, q.worker, q.generation, q.text, q.options, q.recommend, q.risk, q.context, q.created_at, w.task, w.kind
      FROM questions q JOIN workers w ON w.id = q.worker WHERE q.id = ? AND q.audience = 'parent-agent' AND q.state = 'open'`).get(id) as Row | undefined;
  return r && fromRow(r);
}

/** Moves one consult to the human with the reason; false when it had already left the lane. */
export function escalateQuestion(tx: Tx, id: string, reason: string): boolean {
  return statement(tx.db, "UPDATE questions SET audience = 'human', escalated_at = ?, escalation = ? WHERE id = ? AND audience = 'parent-agent' AND state = 'open'")
    .run(tx.now, reason, id).changes > 0;
}

/** Per worker: open questions for the human and consults still with the parent agent (the `consulting` state). */
export function openQuestionAudiences(db: Db): Map<string, { human: number; agent: number }> {
  const rows = statement(db, `SELECT worker, sum(audience = 'human') AS human, sum(audience = 'parent-agent') AS agent
      FROM questions WHERE state = 'open' GROUP BY worker`).all() as { worker: string; human: number; agent: number }[];
  return new Map(rows.map((r) => [r.worker, { human: r.human, agent: r.agent }]));
}
