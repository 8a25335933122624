// Promoting a stored record's frozen change set into this project's checkout: the same frozen-only path as a worker
// version (apply-frozen), bound to the approval the record carries and to the bytes the ledger pinned (ADR-0005, DESIGN §8a).

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { refusal, validationError } from "../../domain/errors.js";
import { confirmationRefused, resolveConfirmation } from "../../domain/review/confirmation.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import type { EngineContext } from "../context.js";
import { storedForUse, type StoredForUse } from "../handoff/store-use.js";
import { alreadyApplied, applyFrozen, RECOVERED_NOTE } from "./apply-frozen.js";
import type { PromoteResult } from "./promotion.js";
import { decisionView, promotionOf } from "./target.js";
import { parentChangeWarnings, type ReviewWarning } from "./warnings.js";
import { journalPromotion } from "../talk/journal.js";

export interface StoredPromoteInput {
  /** `deliverable:<id>:<v>`, a store id or prefix, `last`, or a loaded `d<N>` slot. */
  target: string;
  yes?: boolean;
  approve?: boolean;
}

export interface StoredPromotionPlan {
  stored: StoredForUse;
  pointer: DeliverablePointer;
  root: string;
  files: string[];
  warnings: ReviewWarning[];
  needsConfirmation: boolean;
  alreadyApplied: boolean;
}

/** Everything checked before the checkout is touched; read-only. */
export function planStoredPromotion(ctx: EngineContext, input: StoredPromoteInput): StoredPromotionPlan {
  if (input.approve) {
    throw validationError("approve-stored", "--approve judges a worker's version; a stored record already carries its approval", "promote it without --approve");
  }
  const stored = storedForUse(ctx, input.target); // refuses legacy bundles, unloadable records and bytes that differ from the pin
  const change: ChangeSet | null = stored.record.changeSet;
  if (!change || change.patch === "") {
    throw refusal("nothing-to-promote", `${stored.ref} has no frozen patch; there is nothing to promote`, `hand it on instead: \`docket use ${stored.ref} --parent\``);
  }
  const promoted = promotionOf(ctx.db, stored.ref);
  if (promoted) throw refusal("already-promoted", `${stored.ref} was already promoted (${promoted.id}, ${promoted.at}); nothing changed`);
  const root = ctx.projectRoot();
  const files = change.files.map((f) => f.path);
  const applied = alreadyApplied(ctx, root, change.patch);
  const whose = stored.provenance.sourceWorker ?? stored.ref;
  const warnings = applied ? [] : parentChangeWarnings(ctx, root, { base: change.base || null, baseHead: null }, files, whose).warnings;
  return {
    stored, pointer: { id: stored.record.id, version: stored.record.version, ref: stored.ref }, root, files, warnings,
    needsConfirmation: warnings.length > 0, alreadyApplied: applied,
  };
}

export function promoteStored(ctx: EngineContext, input: StoredPromoteInput): PromoteResult {
  const plan = planStoredPromotion(ctx, input);
  const { stored, pointer, root, files } = plan;
  if (resolveConfirmation("promote", { yes: Boolean(input.yes), interactive: false, needed: plan.needsConfirmation }) === "refuse") {
    throw confirmationRefused("promote", stored.ref, plan.warnings.map((w) => w.text).join("; "));
  }
  const patch = stored.record.changeSet!.patch;
  const { recorded, recovered } = applyFrozen(ctx, {
    ref: stored.ref, root, patch, files,
    request: { ref: stored.ref, sha256: stored.sha256 },
    record: (tx, recovered) => {
      if (promotionOf(tx.db, stored.ref)) throw refusal("already-promoted", `${stored.ref} was promoted meanwhile`);
      const notes = [
        `approved by ${stored.approval.decisionId} (carried by the stored record)`,
        ...(plan.warnings.length > 0 ? [`confirmed despite: ${plan.warnings.map((w) => w.text).join("; ")}`] : []),
        ...(recovered ? [RECOVERED_NOTE] : []),
      ];
      const decision = insertDecision(tx, {
        actor: "human", verb: "promote", worker: stored.provenance.sourceWorker ?? "parent", deliverable: pointer,
        option: `${files.length} file${files.length === 1 ? "" : "s"}: ${files.join(", ")}`, note: notes.join("; "),
        evidenceRefs: [stored.ref, ...(stored.record.changeSet!.ref ? [stored.record.changeSet!.ref] : [])], contentSha256: stored.sha256,
      });
      journalPromotion(tx, {
        projectRoot: root, ref: stored.ref, paths: files, workers: stored.provenance.sourceWorker ? [stored.provenance.sourceWorker] : [],
        summary: stored.record.summary, decision: decision.id,
      });
      return decisionView(decision);
    },
  });
  return {
    decision: recorded,
    approval: null,
    files,
    workspace: "stored",
    notes: [
      recovered
        ? `${root} already held exactly the frozen patch of ${stored.ref} (an interrupted promotion); recorded the promotion now, nothing applied twice`
        : `promoted ${files.length} file${files.length === 1 ? "" : "s"} from ${stored.ref} into ${root} (working tree only, not committed)`,
      "a stored record has no workspace of its own; no worker workspace was touched",
    ],
  };
}
