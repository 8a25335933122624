// Decision rows (append-only: the schema's triggers refuse UPDATE and DELETE) and decision debt, in SQL.
// Every judgment names one exact deliverable {id, version, ref}; readers turn rows into domain records
// (docs/decisions/immutable-deliverables.md).

import {
  assertActorMayRecord,
  COUNTING_ACTORS,
  countsAsJudgment,
  TERMINAL_VERBS,
  type DecisionActor,
  type DecisionRecord,
} from "../../domain/review/approval.js";
import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { formatId } from "../../domain/ids.js";
import { asStringList, jsonColumn } from "../core/json-columns.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface NewDecision {
  actor: DecisionActor;
  verb: string;
  worker: string;
  deliverable?: DeliverablePointer | null;
  option?: string | null;
  note?: string | null;
  risk?: string | null;
  question?: string | null;
  evidenceRefs?: string[];
  /**
   * The sha256 of the exact deliverable bytes this judgment saw (approval binds content:
   * docs/decisions/immutable-deliverables.md).
   */
  contentSha256?: string | null;
}

export interface Decision {
  id: string;
  at: string;
  actor: DecisionActor;
  verb: string;
  worker: string;
  deliverable: DeliverablePointer | null;
  option: string | null;
  note: string | null;
  risk: string | null;
  question: string | null;
  evidenceRefs: string[];
  contentSha256: string | null;
}

interface DecisionRow {
  id: string;
  seq: number;
  at: string;
  actor: DecisionActor;
  verb: string;
  worker: string;
  deliverable_id: string | null;
  deliverable_version: number | null;
  deliverable_ref: string | null;
  option: string | null;
  note: string | null;
  risk: string | null;
  question: string | null;
  evidence_refs: string;
  content_sha256: string | null;
}

function fromRow(r: DecisionRow): Decision {
  return {
    id: r.id,
    at: r.at,
    actor: r.actor,
    verb: r.verb,
    worker: r.worker,
    deliverable:
      r.deliverable_id !== null && r.deliverable_version !== null && r.deliverable_ref !== null
        ? { id: r.deliverable_id, version: r.deliverable_version, ref: r.deliverable_ref }
        : null,
    option: r.option,
    note: r.note,
    risk: r.risk,
    question: r.question,
    evidenceRefs: jsonColumn(r.evidence_refs, asStringList, { table: "decisions", column: "evidence_refs", id: r.id }),
    contentSha256: r.content_sha256,
  };
}

/** Appends one decision row (`dc<N>`, never reused) at the command's time. */
export function insertDecision(tx: Tx, d: NewDecision): Decision {
  assertActorMayRecord(d.actor, d.verb);
  const seq = tx.next("decision");
  const id = formatId("decision", seq);
  const p = d.deliverable ?? null;
  statement(
    tx.db,
    `INSERT INTO decisions (id, seq, at, actor, verb, worker, deliverable_id, deliverable_version, deliverable_ref,
        option, note, risk, question, evidence_refs, content_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    seq,
    tx.now,
    d.actor,
    d.verb,
    d.worker,
    p?.id ?? null,
    p?.version ?? null,
    p?.ref ?? null,
    d.option ?? null,
    d.note ?? null,
    d.risk ?? null,
    d.question ?? null,
    JSON.stringify(d.evidenceRefs ?? []),
    d.contentSha256 ?? null,
  );
  return {
    id,
    at: tx.now,
    actor: d.actor,
    verb: d.verb,
    worker: d.worker,
    deliverable: p,
    option: d.option ?? null,
    note: d.note ?? null,
    risk: d.risk ?? null,
    question: d.question ?? null,
    evidenceRefs: d.evidenceRefs ?? [],
    contentSha256: d.contentSha256 ?? null,
  };
}

/** Every decision on one worker, oldest first. */
export function decisionsForWorker(db: Db, worker: string): Decision[] {
  return (statement(db, "SELECT * FROM decisions WHERE worker = ? ORDER BY seq").all(worker) as DecisionRow[]).map(
    fromRow,
  );
}

/** The newest decision on one worker (any version, any verb), or undefined: the "what the page saw" stamp. */
export function lastDecisionOf(db: Db, worker: string): Decision | undefined {
  const row = statement(db, "SELECT * FROM decisions WHERE worker = ? ORDER BY seq DESC LIMIT 1").get(worker) as
    | DecisionRow
    | undefined;
  return row ? fromRow(row) : undefined;
}

/** Every decision bound to one exact deliverable ref, oldest first. */
export function decisionsForRef(db: Db, ref: string): Decision[] {
  return (
    statement(db, "SELECT * FROM decisions WHERE deliverable_ref = ? ORDER BY seq").all(ref) as DecisionRow[]
  ).map(fromRow);
}

/** Decisions at or after `since` (ISO), newest first, at most `limit`. */
export function recentDecisions(db: Db, options: { since?: string; limit: number }): Decision[] {
  const rows = statement(db, "SELECT * FROM decisions WHERE at >= ? ORDER BY seq DESC LIMIT ?").all(
    options.since ?? "",
    options.limit,
  ) as DecisionRow[];
  return rows.map(fromRow);
}

export function countDecisionsByVerb(db: Db, since?: string): Record<string, number> {
  const rows = statement(db, "SELECT verb, count(*) AS n FROM decisions WHERE at >= ? GROUP BY verb ORDER BY verb").all(
    since ?? "",
  ) as { verb: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.verb, r.n]));
}

/**
 * The SQL form of `countsAsJudgment` over the decisions table aliased `d`, built from the domain's table so the
 * two can never disagree (the review pulse runs it on every ledger change).
 */
export const COUNTED_JUDGMENT_SQL = `(${TERMINAL_VERBS.map(
  (verb) => `(d.verb = '${verb}' AND d.actor IN (${COUNTING_ACTORS[verb].map((a) => `'${a}'`).join(", ")}))`,
).join(" OR ")})`;

/** Of these refs, those with a counted judgment (approve, reject, promote or combine that counts). */
export function judgedRefs(db: Db, refs: readonly string[]): Set<string> {
  if (refs.length === 0) return new Set();
  const rows = statement(
    db,
    `SELECT DISTINCT d.deliverable_ref AS ref FROM decisions d
    WHERE d.deliverable_ref IN (SELECT value FROM json_each(?)) AND ${COUNTED_JUDGMENT_SQL}`,
  ).all(JSON.stringify(refs)) as { ref: string }[];
  return new Set(rows.map((r) => r.ref));
}

/** The record approval rules read (domain/review/approval.ts). */
export function toDecisionRecord(d: Decision): DecisionRecord {
  return {
    id: d.id,
    at: d.at,
    actor: d.actor,
    verb: d.verb,
    worker: d.worker,
    deliverableId: d.deliverable?.id,
    deliverableVersion: d.deliverable?.version,
    deliverableRef: d.deliverable?.ref,
    contentSha256: d.contentSha256,
  };
}

export interface DecisionDebt {
  worker: string;
  deliverableRef: string | null;
  state: string | null;
  reason: string;
  at: string;
}

/**
 * Records decision debt: a worker removed (pruned) while its current version was never judged.
 * Call inside the prune command; returns false (and records nothing) when the current version was judged.
 */
export function recordDecisionDebt(
  tx: Tx,
  worker: { id: string; state: string; deliverableRef: string | null },
  reason = "pruned",
): boolean {
  if (worker.deliverableRef !== null) {
    if (decisionsForRef(tx.db, worker.deliverableRef).some(countsAsJudgment)) return false;
  } else if (worker.state !== "ready" && worker.state !== "needs_input" && worker.state !== "failed") {
    return false; // nothing was ever offered for judgment
  }
  statement(tx.db, "INSERT INTO decision_debt (worker, deliverable_ref, state, reason, at) VALUES (?, ?, ?, ?, ?)").run(
    worker.id,
    worker.deliverableRef,
    worker.state,
    reason,
    tx.now,
  );
  return true;
}

export function listDecisionDebt(db: Db, since?: string): DecisionDebt[] {
  return (
    statement(
      db,
      "SELECT worker, deliverable_ref, state, reason, at FROM decision_debt WHERE at >= ? ORDER BY id DESC",
    ).all(since ?? "") as {
      worker: string;
      deliverable_ref: string | null;
      state: string | null;
      reason: string;
      at: string;
    }[]
  ).map((r) => ({ worker: r.worker, deliverableRef: r.deliverable_ref, state: r.state, reason: r.reason, at: r.at }));
}

/** A promotion that landed in a project's checkout: which worker's version, and the decision that recorded it. */
export interface LandedPromotion {
  decision: string;
  worker: string;
  version: number;
  ref: string;
  task: string;
}

/** Promotions of other workers' versions into `projectRoot` at or after `since`, oldest first. */
export function promotionsSince(
  db: Db,
  options: { projectRoot: string; exceptWorker: string; since: string },
): LandedPromotion[] {
  return statement(
    db,
    `SELECT d.id AS decision, d.worker AS worker, d.deliverable_version AS version, d.deliverable_ref AS ref, w.task AS task
       FROM decisions d JOIN workers w ON w.id = d.worker
       WHERE d.verb = 'promote' AND d.worker != ? AND w.project_root = ? AND d.at >= ? AND d.deliverable_ref IS NOT NULL
       ORDER BY d.seq`,
  ).all(options.exceptWorker, options.projectRoot, options.since) as LandedPromotion[];
}
