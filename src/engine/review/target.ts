// Which exact deliverable version a review verb acts on, whether it is approved, and the stale-version guards.
// A bare `w3` means the current version; only an exact ref may name an older one
// (docs/decisions/immutable-deliverables.md).

import {
  changeSetRef,
  deliverableRef,
  workerVersionRef,
  type ReviewableRef,
  type WorkerVersionRef,
} from "../../domain/deliverables/refs.js";
import type { Worker } from "../../domain/workers/worker.js";
import {
  approvalFor,
  closureOf as closureIn,
  latestJudgment,
  type DecisionRecord,
} from "../../domain/review/approval.js";
import type { DeliverablePointer, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { refusal } from "../../domain/errors.js";
import { verifyContent } from "../../domain/review/content-binding.js";
import { decisionsForRef, lastDecisionOf, toDecisionRecord, type Decision } from "../../ledger/review/decisions.js";
import type { Db } from "../../ledger/core/open.js";
import type { Tx } from "../../ledger/core/runner.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { deliverableByRef, pointerOf, type SidecarReader } from "./deliverables.js";

export interface TargetInput {
  /**
   * `w3`, `w3:v2`, `worker-deliverable:w3:2` (or a combined or stored ref) as the human gave it, parsed once where it is
   * resolved; or the ref a surface already parsed (a card's action), handed down as it is.
   */
  target: string | ReviewableRef;
  /** With a bare worker id: the version the human means; an older one is refused (name the exact ref instead). */
  version?: number;
  /** The version the human was looking at (an interactive card): refused when the current version moved on. */
  expectVersion?: number;
  /**
   * The sha256 of the sidecar the human was looking at: refused when its bytes changed since
   * (docs/decisions/authority.md).
   */
  expectSha256?: string;
  /** The worker's newest decision id the human saw (null: none): refused when another decision landed since. */
  expectDecision?: string | null;
}

export interface ReviewTarget {
  worker: Worker;
  pointer: DeliverablePointer;
  current: DeliverablePointer;
  /** The human named this exact version with a ref. */
  exact: boolean;
  deliverable: WorkerDeliverable;
  /** The sidecar read and the sha256 of its exact bytes (what a judgment records and an approval is checked against). */
  path: string;
  sha256: string;
}

/** What a worker's version is held to besides its ref: the guards of TargetInput. */
export type TargetGuards = Omit<TargetInput, "target">;

/**
 * The worker version `ref` names (parsed once, by whoever took the text). `read`: a review run's sidecar memo
 * (review-facts.ts), so a queue reads each version once; by default the home.
 */
export function resolveReviewTarget(
  ctx: EngineContext,
  ref: WorkerVersionRef,
  input: TargetGuards = {},
  read?: SidecarReader,
): ReviewTarget {
  const exact = ref.version !== undefined;
  const resolved = deliverableByRef(ctx, ref, exact ? input.version : undefined, read);
  const current = pointerOf(resolved.worker)!;
  if (!exact && input.version !== undefined && input.version !== current.version) {
    if (input.version < current.version) {
      throw refusal(
        "older-version",
        `${resolved.workerId} v${input.version} is older than its current version v${current.version}; nothing changed`,
        `review v${current.version} with \`docket verdict ${resolved.workerId}\`, or name the exact ref ${deliverableRef(resolved.workerId, input.version)} to judge that version`,
      );
    }
    return {
      ...resolveReviewTarget(ctx, workerVersionRef(resolved.workerId, input.version), {}, read),
      exact: false,
    };
  }
  if (input.expectVersion !== undefined && input.expectVersion !== current.version) {
    throw refusal(
      "version-moved",
      `${resolved.workerId} published v${current.version} while you were reviewing v${input.expectVersion}; nothing changed`,
      `review v${current.version} with \`docket verdict ${resolved.workerId}\``,
    );
  }
  if (input.expectSha256 !== undefined)
    verifyContent({
      ref: resolved.pointer.ref,
      file: resolved.path,
      expected: input.expectSha256,
      actual: resolved.sha256,
    });
  return {
    worker: resolved.worker,
    pointer: resolved.pointer,
    current,
    exact,
    deliverable: resolved.deliverable,
    path: resolved.path,
    sha256: resolved.sha256,
  };
}

/**
 * Inside a command: the worker's current pointer must still be the one resolved before the command. A bare id
 * that meant "current" must not silently land on a version published meanwhile.
 */
export function assertPointerUnchanged(tx: Tx, target: ReviewTarget): Worker {
  const row = requireWorker(tx.db, target.worker.id);
  const now = pointerOf(row);
  if (!now || now.ref !== target.current.ref) {
    throw refusal(
      "version-moved",
      `${row.id} published v${now?.version ?? "?"} while this command ran; nothing changed`,
      `review it with \`docket verdict ${row.id}\``,
    );
  }
  return row;
}

/**
 * Inside a command (or just before one): no decision on this worker landed after the one the human saw. A page that
 * rendered a card binds its action to that card; a verdict recorded meanwhile (another tab, the CLI) wins.
 */
export function assertDecisionUnchanged(db: Db, worker: string, expect: string | null | undefined): void {
  if (expect === undefined) return;
  const last = lastDecisionOf(db, worker);
  if ((last?.id ?? null) === expect) return;
  const what = last
    ? `${last.id} (${last.verb}${last.deliverable ? ` ${last.deliverable.ref}` : ""}, ${last.actor})`
    : "none";
  throw refusal(
    "decision-landed",
    `${worker}'s newest decision is ${what}, not ${expect ?? "none"} as on the card you acted on; nothing changed`,
    `reload the card (\`docket verdict ${worker}\`) and judge again`,
  );
}

export function decisionRecordsFor(db: Db, ref: string): DecisionRecord[] {
  return decisionsForRef(db, ref).map(toDecisionRecord);
}

/** The approving decision of one exact version, or undefined (never widened to another version). */
export function approvalOf(db: Db, pointer: DeliverablePointer): DecisionRecord | undefined {
  return approvalFor(decisionRecordsFor(db, pointer.ref), pointer);
}

/**
 * The approving decision of the target, re-verified against the bytes read now: undefined when not approved,
 * a `deliverable-tampered` refusal when the sidecar changed since it was approved (docs/decisions/authority.md).
 */
export function verifiedApprovalOf(db: Db, target: ReviewTarget): DecisionRecord | undefined {
  const approval = approvalOf(db, target.pointer);
  if (approval)
    verifyContent({
      ref: target.pointer.ref,
      file: target.path,
      expected: approval.contentSha256,
      actual: target.sha256,
    });
  return approval;
}

/** The latest decision with `verb` on this exact version. */
export function latestDecision(db: Db, ref: string, verbs: readonly string[]): Decision | undefined {
  return decisionsForRef(db, ref)
    .filter((d) => verbs.includes(d.verb))
    .at(-1);
}

/** The latest judgment of one exact version that counts (domain/review/approval.ts), or undefined: not judged. */
export function judgmentOf(db: Db, pointer: DeliverablePointer): DecisionRecord | undefined {
  return latestJudgment(decisionRecordsFor(db, pointer.ref), pointer);
}

/** The promotion of one exact version, or undefined: its patch landed in the parent checkout (whoever recorded it). */
export function promotionOf(db: Db, ref: string): Decision | undefined {
  return latestDecision(db, ref, ["promote"]);
}

/** The decision that closed one exact version (promoted, or rejected / combined as its latest judgment), or undefined: open. */
export function closureOf(db: Db, pointer: DeliverablePointer): DecisionRecord | undefined {
  return closureIn(decisionRecordsFor(db, pointer.ref), pointer);
}

/** Refs a judge could see: the deliverable and, when it has one, its frozen change set. */
export function evidenceRefsOf(target: {
  worker: { id: string };
  pointer: DeliverablePointer;
  deliverable: WorkerDeliverable;
}): string[] {
  const refs = [target.pointer.ref];
  if (target.deliverable.changeSet)
    refs.push(target.deliverable.changeSet.ref || changeSetRef(target.worker.id, target.pointer.version));
  return refs;
}

export interface DecisionView {
  id: string;
  verb: string;
  worker: string;
  deliverable: DeliverablePointer | null;
}

/** The `{"decision":{…}}` shape of the CLI contract. */
export function decisionView(d: Decision): DecisionView {
  return { id: d.id, verb: d.verb, worker: d.worker, deliverable: d.deliverable };
}

export function olderNote(target: ReviewTarget): string[] {
  return target.pointer.version < target.current.version
    ? [
        `${target.pointer.ref} is older than ${target.worker.id}'s current version v${target.current.version}; this applies to v${target.pointer.version} only`,
      ]
    : [];
}

/** A version closed as combined is judged through its combined version, never again on its own. */
export function assertNotCombined(db: Db, ref: string): void {
  const combined = latestDecision(db, ref, ["combine"]);
  if (combined) {
    throw refusal(
      "combined-closed",
      `${ref} is closed as combined into ${combined.option} (${combined.id}); nothing changed`,
      "judge the combined version with `docket verdict <ref>`",
    );
  }
}
