// One query for what changed on a project's review side: per worker, its current version, newest decision, open
// questions and whether that version is judged (the domain's counting rule, in SQL); cheap enough for every ledger change.

import type { Db } from "../core/open.js";
import { statement } from "../core/statements.js";
import { COUNTED_JUDGMENT_SQL } from "./decisions.js";
import { openQuestionCountSql } from "../workers/questions.js";

export interface PulseRow {
  worker: string;
  seq: number;
  state: string;
  version: number | null;
  ref: string | null;
  reviewedAt: string | null;
  updatedAt: string;
  lastDecision: string | null;
  openQuestions: number;
  judged: boolean;
}

const SQL = `SELECT w.id AS worker, w.seq, w.state, w.deliverable_version AS version,
    CASE WHEN w.deliverable_id IS NOT NULL AND w.deliverable_version IS NOT NULL THEN w.deliverable_ref END AS ref,
    w.reviewed_at AS reviewedAt, w.updated_at AS updatedAt,
    (SELECT d.id FROM decisions d WHERE d.worker = w.id ORDER BY d.seq DESC LIMIT 1) AS lastDecision,
    ${openQuestionCountSql("w.id")} AS openQuestions,
    EXISTS (SELECT 1 FROM decisions d WHERE d.deliverable_ref = w.deliverable_ref AND ${COUNTED_JUDGMENT_SQL}) AS judged
  FROM workers w WHERE w.deleted_at IS NULL AND w.project_root = ? ORDER BY w.seq`;

export function pulseRows(db: Db, projectRoot: string): PulseRow[] {
  return (statement(db, SQL).all(projectRoot) as (Omit<PulseRow, "judged"> & { judged: number })[]).map((r) => ({
    ...r,
    judged: r.judged === 1,
  }));
}
