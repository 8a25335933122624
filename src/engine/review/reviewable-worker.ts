// A worker's version as a Reviewable: bound to what the human was shown, still current when judged, and on promotion
// its workspace reset only when its live tree still equals base + frozen patch
// (docs/decisions/immutable-deliverables.md).

import { deliverableRef, type WorkerVersionRef } from "../../domain/deliverables/refs.js";
import { refusal, type DocketError } from "../../domain/errors.js";
import { notApproved } from "../../domain/review/approval.js";
import { workerTreeOf } from "../../domain/workers/worker-tree.js";
import { pathExists } from "../../files/probe.js";
import { activeItemsByWorker } from "../../ledger/work/bindings.js";
import { updateWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { placeOf } from "../places/place.js";
import { assertFrozenIntegrity } from "./frozen-integrity.js";
import type { WorkspaceOutcome } from "./promotion.js";
import type { Reviewable } from "./reviewable-shape.js";
import { assertShownBinding } from "./shown.js";
import type { SidecarReader } from "./deliverables.js";
import type { ReviewTarget, TargetGuards } from "./target.js";
import {
  approvalOf,
  assertDecisionUnchanged,
  assertNotCombined,
  assertPointerUnchanged,
  evidenceRefsOf,
  olderNote,
  resolveReviewTarget,
  verifiedApprovalOf,
} from "./target.js";
import { resolveReviewWarnings } from "./warnings.js";

/** Warnings a promotion of a worker version needs confirmed (the rest are said, not asked). */
const CONFIRMED_WARNINGS = new Set(["overlap", "parent-moved", "parent-unknown"]);

/** Verbs that only read a version: a deleted worker's versions stay readable by them. */
const READS = new Set(["diff", "verdict"]);

export function workerReviewable(
  ctx: EngineContext,
  ref: WorkerVersionRef,
  input: TargetGuards,
  read?: SidecarReader,
): Reviewable {
  const t = resolveReviewTarget(ctx, ref, input, read);
  const current = t.pointer.ref === t.current.ref;
  const change = t.deliverable.changeSet ?? null;
  const patchPending = Boolean(change && change.patch !== "");
  const revise = `${t.worker.id} was not told; use \`docket revise ${t.worker.id} <note>\` to ask for changes`;
  return {
    kind: "worker",
    subject: t.worker.id,
    author: t.worker.id,
    pointer: t.pointer,
    path: t.path,
    sha256: t.sha256,
    changeSet: change,
    evidenceRefs: evidenceRefsOf(t),
    projectRoot: t.worker.projectRoot,
    summary: t.deliverable.summary,
    body: t.deliverable.body,
    outcome: t.deliverable.outcome,
    worker: t,
    refuses: (verb) =>
      t.worker.deletedAt !== null && !READS.has(verb)
        ? deletedWorker(t)
        : verb === "use" && !current
          ? useNotCurrent(t)
          : undefined,
    shown: (verb) => assertShownBinding(ctx, t, input, verb),
    assertStill: (tx, verb) => {
      if (!t.exact) assertPointerUnchanged(tx, t);
      if (verb === "approve") assertNotCombined(tx.db, t.pointer.ref);
    },
    // A patch still waiting for promotion keeps the worker in view; a patch-less version is settled by approval.
    settle: (tx, verb) => {
      if (current && (verb === "reject" || !patchPending)) updateWorker(tx, t.worker.id, { reviewedAt: tx.now });
    },
    after: (verb) => [...olderNote(t), ...(verb === "reject" ? [revise] : [])],
    promotion: {
      approval: { kind: "recorded" },
      instead: `approve it instead: \`docket approve ${t.pointer.ref}\``,
      assertPromotable: () => {
        assertFrozenIntegrity(ctx, t.pointer.ref, change!);
        // A worker that changed its `.git` since spawn is refused before anything lands (no git runs in its tree).
        if (t.worker.workspaceMode === "isolated" && pathExists(t.worker.workspace))
          ctx.git.checkWorkerTree(workerTreeOf(t.worker));
        assertNotCombined(ctx.db, t.pointer.ref);
      },
      warnings: () => {
        const { warnings } = resolveReviewWarnings(ctx, t.worker, t.pointer, t.deliverable);
        return { warnings, needsConfirmation: warnings.some((w) => CONFIRMED_WARNINGS.has(w.kind)) };
      },
      earlierApproved: () => earlierApproved(ctx, t),
      credited: [t.worker.id],
      notes: [],
      settle: (tx) => updateWorker(tx, t.worker.id, { reviewedAt: tx.now }),
      reset: (patch) => {
        const { workspace, note } = settleWorkspace(ctx, t, patch);
        return { workspace, notes: [note, ...unreportedNote(ctx, t.worker.id)] };
      },
      preface: olderNote(t),
    },
    use: {
      authorize: (tx, expectDecision) => {
        assertPointerUnchanged(tx, t);
        assertDecisionUnchanged(tx.db, t.worker.id, expectDecision);
        const approval = verifiedApprovalOf(tx.db, t);
        if (!approval) throw notApproved({ verb: "use", ref: t.pointer.ref, worker: t.worker.id });
        return { approvingDecisionId: approval.id, approvedAt: approval.at };
      },
      chipWorker: t.worker.id,
      from: t.worker.id,
      sourceWorker: t.worker.id,
      sourceKind: "worker",
    },
  };
}

function useNotCurrent(t: ReviewTarget): DocketError {
  return refusal(
    "use-not-current",
    `Use needs the exact current version: ${t.pointer.ref} is older than ${t.worker.id}'s ` +
      `current v${t.current.version}; nothing changed`,
    `review v${t.current.version} with \`docket verdict ${t.worker.id}\``,
  );
}

function earlierApproved(ctx: EngineContext, t: ReviewTarget): number[] {
  const earlier: number[] = [];
  for (let v = 1; v < t.pointer.version; v++) {
    if (approvalOf(ctx.db, { id: t.pointer.id, version: v, ref: deliverableRef(t.worker.id, v) })) earlier.push(v);
  }
  return earlier;
}

/** Items the promoted worker still holds without a report stay open, their obligations owed: the result says so. */
function unreportedNote(ctx: EngineContext, worker: string): string[] {
  const held = activeItemsByWorker(ctx.db).get(worker) ?? [];
  if (held.length === 0) return [];
  const list = held.join(", ");
  const stay = held.length === 1 ? "it stays" : "they stay";
  return [
    `${worker} still holds ${list} without a report: ${stay} open and owed; ` +
      `ask it to report (\`docket tell ${worker} "report ${list}"\`) or see \`docket obligations\``,
  ];
}

/** Resets the worker's workspace to its base only when its live tree still equals base + frozen patch. */
function settleWorkspace(
  ctx: EngineContext,
  t: ReviewTarget,
  patch: string,
): { workspace: WorkspaceOutcome; note: string } {
  const w = t.worker;
  const base = t.deliverable.changeSet?.base || w.base;
  if (w.workspaceMode !== "isolated" || !base)
    return { workspace: "shared", note: `${w.id} works in your checkout (shared); nothing to reset` };
  // Checked and reset where its workspace is (a host's: there; the one here is only its base).
  const place = placeOf(ctx, w);
  const settled = place.settle(w, base, patch);
  if (settled === "missing")
    return { workspace: "missing", note: `${w.id}'s workspace ${w.workspace} is gone; nothing to reset` };
  if (settled === "kept-later-edits") {
    return {
      workspace: "kept-later-edits",
      note: `${w.id} changed its workspace${place.at} after this version; its workspace was left as it is`,
    };
  }
  return {
    workspace: "reset",
    note: `${w.id}'s workspace${place.at} was reset to its base (its live changes equalled the promoted patch)`,
  };
}

/** A deleted worker's versions are read by ref (report, diff, verdict), never judged or handed on: nothing runs it. */
function deletedWorker(t: ReviewTarget): DocketError {
  return refusal(
    "worker-deleted",
    `${t.worker.id} was deleted; ${t.pointer.ref} stays readable but is not judged, promoted or used; nothing changed`,
    `read it with \`docket report ${t.pointer.ref}\` or \`docket diff ${t.pointer.ref}\``,
  );
}
