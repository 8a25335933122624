// Promotion: the frozen patch of one exactly approved version — a worker's, a combined one or a stored record's — lands
// in the parent checkout (working tree only), written once over the Reviewable. Order: checks (approval re-verified
// against the bytes) → apply-frozen → ONE command with the decision rows; nothing changes on a refusal
// (docs/decisions/immutable-deliverables.md).

import { refusal } from "../../domain/errors.js";
import { approvalNeedsHuman, notApproved, type DecisionActor } from "../../domain/review/approval.js";
import { confirmationRefused, resolveConfirmation } from "../../domain/review/confirmation.js";
import { verifyContent } from "../../domain/review/content-binding.js";
import type { Db } from "../../ledger/core/open.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { journalPromotion } from "../talk/journal.js";
import { alreadyApplied, applyFrozen, checkFrozenApplies, RECOVERED_NOTE } from "./apply-frozen.js";
import type { PromoteResult, WorkspaceOutcome } from "./promotion.js";
import { resolveReviewable, type Reviewable } from "./reviewable.js";
import {
  approvalOf,
  assertDecisionUnchanged,
  decisionView,
  promotionOf,
  type DecisionView,
  type TargetInput,
} from "./target.js";
import type { ReviewWarning } from "./warnings.js";

export type { PromoteResult, WorkspaceOutcome };

export interface PromoteInput extends TargetInput {
  /** Record the approval together with the promotion, in one command, after the patch applied. */
  approve?: boolean;
  /** Promote despite warnings (parent changed files, overlaps with other workers). */
  yes?: boolean;
  actor?: DecisionActor;
}

export interface PromotionPlan {
  reviewable: Reviewable;
  /** The checkout it lands in, and the frozen patch that lands. */
  root: string;
  patch: string;
  files: string[];
  approvedBy: string | null;
  warnings: ReviewWarning[];
  /** Warnings that need the human's confirmation (or --yes) before anything is applied. */
  needsConfirmation: boolean;
  /** The checkout already holds this exact patch (an interrupted promotion): only its record is missing. */
  alreadyApplied: boolean;
  /** With --approve on an unapproved version: the line naming the exact ref judged. */
  judged?: string[];
}

/** Everything checked before any file is touched; read-only. A surface shows its warnings and asks. */
export function planPromotion(ctx: EngineContext, input: PromoteInput): PromotionPlan {
  assertHuman(ctx, "promote");
  const r = resolveReviewable(ctx, input, "promote");
  if (input.approve) {
    const refused = r.refuses("--approve");
    if (refused) throw refused;
  }
  const change = r.changeSet;
  if (!change || change.patch === "") {
    throw refusal(
      "nothing-to-promote",
      `${r.pointer.ref} has no frozen patch; there is nothing to promote`,
      r.promotion.instead,
    );
  }
  r.promotion.assertPromotable();
  if (input.approve && (input.actor ?? "human") !== "human") throw approvalNeedsHuman();
  const promoted = promotionOf(ctx.db, r.pointer.ref);
  if (promoted)
    throw refusal(
      "already-promoted",
      `${r.pointer.ref} was already promoted (${promoted.id}, ${promoted.at}); nothing changed`,
    );
  assertDecisionUnchanged(ctx.db, r.subject, input.expectDecision);
  const approval = approvalIdOf(ctx.db, r);
  if (!approval && !input.approve) throw notApprovedRefusal(r);
  // Approving with the promotion is a judgment: a bare id must be the version the human was last shown.
  const judged = !approval && input.approve ? r.shown("promote") : undefined;
  const applied = alreadyApplied(ctx, r.projectRoot, change.patch);
  // Once the patch is in the checkout, the parent "changed" exactly its files: nothing is left to confirm.
  const { warnings, needsConfirmation } = applied ? { warnings: [], needsConfirmation: false } : r.promotion.warnings();
  const files = change.files.map((f) => f.path);
  return {
    reviewable: r,
    root: r.projectRoot,
    patch: change.patch,
    files,
    approvedBy: approval ?? null,
    warnings,
    needsConfirmation,
    alreadyApplied: applied,
    judged,
  };
}

/**
 * The approval a promotion stands on: the one the record carries, or the version's approving decision re-verified
 * against the bytes read now (`deliverable-tampered` when they changed since it was approved,
 * docs/decisions/immutable-deliverables.md).
 */
function approvalIdOf(db: Db, r: Reviewable): string | undefined {
  if (r.promotion.approval.kind === "carried") return r.promotion.approval.decisionId;
  const approval = approvalOf(db, r.pointer);
  if (approval) verifyContent({ ref: r.pointer.ref, file: r.path, expected: approval.contentSha256, actual: r.sha256 });
  return approval?.id;
}

function notApprovedRefusal(r: Reviewable): Error {
  return notApproved({
    verb: "promote",
    ref: r.pointer.ref,
    worker: r.subject,
    earlierApproved: r.promotion.earlierApproved(),
  });
}

/** Promotes an exactly approved version of any kind: a worker's, a combined one, or a stored record's change set. */
export function promote(ctx: EngineContext, input: PromoteInput): PromoteResult {
  const plan = planPromotion(ctx, input);
  const { reviewable: r, root, patch, files } = plan;
  // A patch that cannot land is refused before any confirmation is asked for (or refused for want of --yes).
  checkFrozenApplies(ctx, { ref: r.pointer.ref, root, patch });
  if (
    resolveConfirmation("promote", { yes: Boolean(input.yes), interactive: false, needed: plan.needsConfirmation }) ===
    "refuse"
  ) {
    const detail = plan.warnings
      .filter((w) => w.kind !== "older-version")
      .map((w) => w.text)
      .join("; ");
    throw confirmationRefused("promote", r.pointer.ref, detail);
  }
  const carried = r.promotion.approval.kind === "carried";
  const { recorded, recovered } = applyFrozen(ctx, {
    ref: r.pointer.ref,
    root,
    patch,
    files,
    request: carried
      ? { ref: r.pointer.ref, sha256: r.sha256 }
      : { ref: r.pointer.ref, approve: Boolean(input.approve) },
    record: (tx, recovered) => {
      const actor = input.actor ?? "human";
      assertDecisionUnchanged(tx.db, r.subject, input.expectDecision);
      let approval: DecisionView | null = null;
      if (!carried && !approvalOf(tx.db, r.pointer)) {
        if (!input.approve) throw notApprovedRefusal(r);
        approval = decisionView(
          insertDecision(tx, {
            actor,
            verb: "approve",
            worker: r.subject,
            deliverable: r.pointer,
            note: "approved with promotion",
            evidenceRefs: r.evidenceRefs,
            contentSha256: r.sha256,
          }),
        );
      }
      if (promotionOf(tx.db, r.pointer.ref))
        throw refusal("already-promoted", `${r.pointer.ref} was promoted meanwhile`);
      const notes = [
        ...r.promotion.notes,
        ...(plan.warnings.length > 0 ? [`confirmed despite: ${plan.warnings.map((w) => w.text).join("; ")}`] : []),
        ...(recovered ? [RECOVERED_NOTE] : []),
      ];
      const decision = insertDecision(tx, {
        actor,
        verb: "promote",
        worker: r.subject,
        deliverable: r.pointer,
        option: filesOption(files),
        note: notes.length > 0 ? notes.join("; ") : null,
        evidenceRefs: r.evidenceRefs,
        contentSha256: r.sha256,
      });
      r.promotion.settle(tx);
      journalPromotion(tx, {
        projectRoot: root,
        ref: r.pointer.ref,
        paths: files,
        workers: r.promotion.credited,
        summary: r.summary,
        decision: decision.id,
      });
      return { decision: decisionView(decision), approval };
    },
  });
  const reset = r.promotion.reset(patch);
  const landed = recovered
    ? `${root} already held exactly the frozen patch of ${r.pointer.ref} (an interrupted promotion); ` +
      "recorded the promotion now, nothing applied twice"
    : `promoted ${countFiles(files)} from ${r.pointer.ref} into ${root} (working tree only, not committed)`;
  const notes = [...(plan.judged ?? []), ...r.promotion.preface, landed, ...reset.notes];
  return { ...recorded, files, workspace: reset.workspace, notes };
}

const countFiles = (files: readonly string[]): string => `${files.length} file${files.length === 1 ? "" : "s"}`;
const filesOption = (files: readonly string[]): string => `${countFiles(files)}: ${files.join(", ")}`;
