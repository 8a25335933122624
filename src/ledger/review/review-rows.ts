// The review side's worker rows, each set read in one query that leaves settled workers out in SQL: the verdict queue's
// candidates, and the workers whose current version is still open (its patch pending). A settled worker costs a
// review run nothing. The rules are the domain's (queue-rank.ts, approval.ts), restated here in SQL.

import type { Worker } from "../../domain/workers/worker.js";
import type { Db } from "../core/open.js";
import { statement } from "../core/statements.js";
import { workerFromRow, type WorkerRow } from "../workers/workers.js";
import { openQuestionCountSql } from "../workers/questions.js";
import { COUNTED_JUDGMENT_SQL } from "./decisions.js";

const HAS_VERSION =
  "w.deliverable_id IS NOT NULL AND w.deliverable_version IS NOT NULL AND w.deliverable_ref IS NOT NULL";
/** Decisions `d` on exactly the current version of worker `w`. */
const ON_CURRENT = `d.deliverable_ref = w.deliverable_ref AND d.deliverable_id = w.deliverable_id
  AND d.deliverable_version = w.deliverable_version`;

export interface QueueCandidate {
  row: Worker;
  openQuestions: number;
  /** Its current version has a counted judgment or a revise (it waits on its worker, not on the human). */
  acted: boolean;
}

const ACTED = `EXISTS (SELECT 1 FROM decisions d WHERE ${ON_CURRENT} AND (${COUNTED_JUDGMENT_SQL} OR d.verb = 'revise'))`;

// Exactly the workers queueRank ranks: an open question, an unreviewed failure, or a ready version nobody acted on.
const QUEUE_SQL = `SELECT * FROM (
    SELECT w.*, ${openQuestionCountSql("w.id")} AS open_questions, (${HAS_VERSION}) AS has_version,
      (${HAS_VERSION} AND ${ACTED}) AS acted
    FROM workers w
    WHERE w.deleted_at IS NULL AND w.project_root = ?
      AND (w.state IN ('failed', 'ready') OR ${openQuestionCountSql("w.id")} > 0)
  ) WHERE open_questions > 0 OR (state = 'failed' AND reviewed_at IS NULL) OR (state = 'ready' AND has_version AND NOT acted)
  ORDER BY seq`;

export function queueCandidates(db: Db, projectRoot: string): QueueCandidate[] {
  const rows = statement(db, QUEUE_SQL).all(projectRoot) as (WorkerRow & {
    open_questions: number;
    acted: number | null;
  })[];
  return rows.map((r) => ({ row: workerFromRow(r), openQuestions: r.open_questions, acted: r.acted === 1 }));
}

// closureOf (domain/review/approval.ts) in SQL: a version is closed by a promotion (by anyone), or when its latest
// counted judgment rejects or combines it — and a counted combine is final (the rule stops at the first one).
const PENDING_SQL = `SELECT w.* FROM workers w
  WHERE w.deleted_at IS NULL AND w.project_root = ? AND ${HAS_VERSION}
    AND NOT EXISTS (SELECT 1 FROM decisions d WHERE ${ON_CURRENT}
      AND (d.verb = 'promote' OR (d.verb = 'combine' AND ${COUNTED_JUDGMENT_SQL})))
    AND COALESCE((SELECT d.verb FROM decisions d WHERE ${ON_CURRENT} AND ${COUNTED_JUDGMENT_SQL}
      ORDER BY d.seq DESC LIMIT 1), '') <> 'reject'
  ORDER BY w.seq`;

/** The project's workers whose current version is open (neither promoted, rejected nor combined), in label order. */
export function pendingVersionRows(db: Db, projectRoot: string): Worker[] {
  return (statement(db, PENDING_SQL).all(projectRoot) as WorkerRow[]).map(workerFromRow);
}
