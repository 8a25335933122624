// Promotion: the frozen patch of one exactly approved version lands in the parent checkout (working tree only).
// Order: checks (approval re-verified against the sidecar's bytes) → apply-frozen → ONE command with the decision rows;
// nothing changes on a refusal, and the worker's workspace is reset only when its live tree still equals base + frozen
// patch (ADR-0003, issue 5 §4). A stored record's change set is promoted by promote-stored.ts through the same path.

import { activeItemsByWorker } from "../../ledger/work/bindings.js";
import { refusal, validationError } from "../../domain/errors.js";
import { approvalNeedsHuman, notApproved, type DecisionActor } from "../../domain/review/approval.js";
import { confirmationRefused, resolveConfirmation } from "../../domain/review/confirmation.js";
import { pathExists } from "../../files/probe.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import { updateWorker } from "../../ledger/workers/workers.js";
import { hostOf, settleRemote } from "../hosts/remote-worker.js";
import type { EngineContext } from "../context.js";
import { deliverableRef, refKind } from "../../domain/deliverables/refs.js";
import { alreadyApplied, applyFrozen, RECOVERED_NOTE } from "./apply-frozen.js";
import { planStoredPromotion, promoteStored } from "./promote-stored.js";
import {
  approvalOf, assertDecisionUnchanged, assertNotCombined, decisionView, evidenceRefsOf, olderNote, promotionOf, resolveReviewTarget, verifiedApprovalOf, type DecisionView, type ReviewTarget, type TargetInput,
} from "./target.js";
import { resolveReviewWarnings, type ReviewWarning } from "./warnings.js";
import type { PromoteResult, PromotionPreview, WorkspaceOutcome } from "./promotion.js";

export type { PromoteResult, PromotionPreview, WorkspaceOutcome };
import { previewCombinedPromotion, promoteCombined } from "./combined.js";
import { assertHuman } from "../authority.js";
import { journalPromotion } from "../talk/journal.js";
import { assertFrozenIntegrity } from "./frozen-integrity.js";
import { workerTreeOf } from "../../domain/workers/worker-tree.js";
import { assertShownBinding } from "./shown.js";

export interface PromoteInput extends TargetInput {
  /** Record the approval together with the promotion, in one command, after the patch applied. */
  approve?: boolean;
  /** Promote despite warnings (parent changed files, overlaps with other workers). */
  yes?: boolean;
  actor?: DecisionActor;
}

export interface PromotionPlan {
  target: ReviewTarget;
  files: string[];
  approvedBy: string | null;
  warnings: ReviewWarning[];
  /** Warnings that need the human's confirmation (or --yes) before anything is applied. */
  needsConfirmation: boolean;
  /** The checkout already holds exactly this patch (an earlier promotion was interrupted): only the record is missing. */
  alreadyApplied: boolean;
  /** With --approve on an unapproved version: the line naming the exact ref judged. */
  judged?: string[];
}

/** Everything checked before any file is touched; read-only. A surface shows its warnings and asks. */
export function planPromotion(ctx: EngineContext, input: PromoteInput): PromotionPlan {
  assertHuman(ctx, "promote");
  const target = resolveReviewTarget(ctx, input);
  const change = target.deliverable.changeSet;
  if (!change || change.patch === "") {
    throw refusal("nothing-to-promote", `${target.pointer.ref} has no frozen patch; there is nothing to promote`, `approve it instead: \`docket approve ${target.pointer.ref}\``);
  }
  assertFrozenIntegrity(ctx, target.pointer.ref, change);
  // A worker that changed its `.git` since spawn is refused before anything lands (no git runs in its tree).
  if (target.worker.workspaceMode === "isolated" && pathExists(target.worker.workspace)) ctx.git.checkWorkerTree(workerTreeOf(target.worker));
  const actor = input.actor ?? "human";
  if (input.approve && actor !== "human") throw approvalNeedsHuman();
  assertNotCombined(ctx.db, target.pointer.ref);
  const promoted = promotionOf(ctx.db, target.pointer.ref);
  if (promoted) {
    throw refusal("already-promoted", `${target.pointer.ref} was already promoted (${promoted.id}, ${promoted.at}); nothing changed`);
  }
  assertDecisionUnchanged(ctx.db, target.worker.id, input.expectDecision);
  const approval = verifiedApprovalOf(ctx.db, target);
  if (!approval && !input.approve) throw notApprovedRefusal(ctx, target);
  // Approving with the promotion is a judgment: a bare id must be the version the human was last shown.
  const judged = !approval && input.approve ? assertShownBinding(ctx, target, input, "promote") : undefined;
  const applied = alreadyApplied(ctx, target.worker.projectRoot, change.patch);
  // Once the patch is in the checkout, the parent "changed" exactly its files: nothing is left to confirm.
  const { warnings } = applied ? { warnings: [] } : resolveReviewWarnings(ctx, target.worker, target.pointer, target.deliverable);
  const needsConfirmation = warnings.some((w) => w.kind === "overlap" || w.kind === "parent-moved" || w.kind === "parent-unknown");
  return { target, files: change.files.map((f) => f.path), approvedBy: approval?.id ?? null, warnings, needsConfirmation, alreadyApplied: applied, judged };
}

function notApprovedRefusal(ctx: EngineContext, target: ReviewTarget): Error {
  const earlierApproved: number[] = [];
  for (let v = 1; v < target.pointer.version; v++) {
    const ref = deliverableRef(target.worker.id, v);
    if (approvalOf(ctx.db, { id: target.pointer.id, version: v, ref })) earlierApproved.push(v);
  }
  return notApproved({ verb: "promote", ref: target.pointer.ref, worker: target.worker.id, earlierApproved });
}

export function previewPromotion(ctx: EngineContext, input: PromoteInput): PromotionPreview {
  assertHuman(ctx, "promote");
  const kind = refKind(input.target);
  if (kind === "combined") return previewCombinedPromotion(ctx, input);
  if (kind === "stored") {
    const plan = planStoredPromotion(ctx, storedInput(input));
    return { ref: plan.stored.ref, files: plan.files, warnings: plan.warnings, needsConfirmation: plan.needsConfirmation };
  }
  const plan = planPromotion(ctx, input);
  return { ref: plan.target.pointer.ref, files: plan.files, warnings: plan.warnings, needsConfirmation: plan.needsConfirmation };
}

function storedInput(input: PromoteInput): { target: string; yes?: boolean; approve?: boolean } {
  if (input.version !== undefined) throw validationError("version-stored", "--version applies to a worker id; a stored ref names its version itself", "drop --version");
  return { target: input.target, yes: input.yes, approve: input.approve };
}

/** Promotes a worker's exactly approved version, or a stored record's change set (promote-stored.ts). */
export function promote(ctx: EngineContext, input: PromoteInput): PromoteResult {
  assertHuman(ctx, "promote");
  const kind = refKind(input.target);
  if (kind === "combined") return promoteCombined(ctx, input);
  if (kind === "stored") return promoteStored(ctx, storedInput(input));
  const plan = planPromotion(ctx, input);
  const { target } = plan;
  const patch = target.deliverable.changeSet!.patch;
  if (resolveConfirmation("promote", { yes: Boolean(input.yes), interactive: false, needed: plan.needsConfirmation }) === "refuse") {
    throw confirmationRefused("promote", target.pointer.ref, plan.warnings.filter((w) => w.kind !== "older-version").map((w) => w.text).join("; "));
  }
  const root = target.worker.projectRoot;
  const { recorded, recovered } = applyFrozen(ctx, {
    ref: target.pointer.ref, root, patch, files: plan.files,
    request: { ref: target.pointer.ref, approve: Boolean(input.approve) },
    record: (tx, recovered) => {
      const actor = input.actor ?? "human";
      assertDecisionUnchanged(tx.db, target.worker.id, input.expectDecision);
      let approval: DecisionView | null | undefined = approvalOf(tx.db, target.pointer) ? null : undefined;
      if (approval === undefined) {
        if (!input.approve) throw notApprovedRefusal(ctx, target);
        approval = decisionView(insertDecision(tx, {
          actor, verb: "approve", worker: target.worker.id, deliverable: target.pointer, note: "approved with promotion",
          evidenceRefs: evidenceRefsOf(target), contentSha256: target.sha256,
        }));
      }
      if (promotionOf(tx.db, target.pointer.ref)) throw refusal("already-promoted", `${target.pointer.ref} was promoted meanwhile`);
      const notes = [
        ...(plan.warnings.length > 0 ? [`confirmed despite: ${plan.warnings.map((w) => w.text).join("; ")}`] : []),
        ...(recovered ? [RECOVERED_NOTE] : []),
      ];
      const decision = insertDecision(tx, {
        actor, verb: "promote", worker: target.worker.id, deliverable: target.pointer,
        option: `${plan.files.length} file${plan.files.length === 1 ? "" : "s"}: ${plan.files.join(", ")}`,
        note: notes.length > 0 ? notes.join("; ") : null,
        evidenceRefs: evidenceRefsOf(target), contentSha256: target.sha256,
      });
      updateWorker(tx, target.worker.id, { reviewedAt: tx.now });
      journalPromotion(tx, {
        projectRoot: root, ref: target.pointer.ref, paths: plan.files, workers: [target.worker.id], summary: target.deliverable.summary, decision: decision.id,
      });
      return { decision: decisionView(decision), approval: approval ?? null };
    },
  });
  const { workspace, note } = settleWorkspace(ctx, target, patch);
  const notes = [
    ...(plan.judged ?? []),
    ...olderNote(target),
    recovered
      ? `${root} already held exactly the frozen patch of ${target.pointer.ref} (an interrupted promotion); recorded the promotion now, nothing applied twice`
      : `promoted ${plan.files.length} file${plan.files.length === 1 ? "" : "s"} from ${target.pointer.ref} into ${root} (working tree only, not committed)`,
    note,
    ...unreportedNote(ctx, target.worker.id),
  ];
  return { ...recorded, files: plan.files, workspace, notes };
}

/** Items the promoted worker still holds without a report stay open, their obligations owed: the result says so. */
function unreportedNote(ctx: EngineContext, worker: string): string[] {
  const held = activeItemsByWorker(ctx.db).get(worker) ?? [];
  if (held.length === 0) return [];
  const list = held.join(", ");
  return [
    `${worker} still holds ${list} without a report: ${held.length === 1 ? "it stays" : "they stay"} open and owed; ask it to report (\`docket tell ${worker} "report ${list}"\`) or see \`docket obligations\``,
  ];
}

/** Resets the worker's workspace to its base only when its live tree still equals base + frozen patch. */
function settleWorkspace(ctx: EngineContext, target: ReviewTarget, patch: string): { workspace: WorkspaceOutcome; note: string } {
  const w = target.worker;
  const base = target.deliverable.changeSet?.base || w.base;
  if (w.workspaceMode !== "isolated" || !base) return { workspace: "shared", note: `${w.id} shares the parent directory; nothing to reset` };
  if (hostOf(w) !== undefined) {
    // Its workspace is on its host: checked and reset there (the one here is only its base).
    if (!settleRemote(ctx, w, base, patch)) return { workspace: "kept-later-edits", note: `${w.id} changed its workspace on host ${hostOf(w)} after this version; its workspace was left as it is` };
    return { workspace: "reset", note: `${w.id}'s workspace on host ${hostOf(w)} was reset to its base (its live changes equalled the promoted patch)` };
  }
  if (!pathExists(w.workspace)) return { workspace: "missing", note: `${w.id}'s workspace ${w.workspace} is gone; nothing to reset` };
  if (!ctx.git.liveEqualsFrozen(workerTreeOf(w), base, patch)) {
    return { workspace: "kept-later-edits", note: `${w.id} changed its workspace after this version; its workspace was left as it is` };
  }
  ctx.git.resetWorkspace(workerTreeOf(w), base);
  return { workspace: "reset", note: `${w.id}'s workspace was reset to its base (its live changes equalled the promoted patch)` };
}
