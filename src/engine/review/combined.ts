// Reviewing a combined version (`combined:w2+w3:<N>`) through the same rules as any version: resolving it, its card
// bound to the sidecar's sha256, and promotion of its frozen patch through apply-frozen (issue 16 §6, DESIGN §8a).

import { moveText, type CardMove } from "../../domain/review/card-actions.js";
import { type CombinedDeliverable } from "../../domain/deliverables/combined.js";
import { combinedId, combinedRef, parseReviewableRef } from "../../domain/deliverables/refs.js";
import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { notFound, refusal } from "../../domain/errors.js";
import { verifyContent } from "../../domain/review/content-binding.js";
import { patchResidue } from "../../domain/review/combine.js";
import { listCombinedVersions, readCombined } from "../../files/review/combined-files.js";
import { readDeliverable } from "../../files/workers/deliverables.js";
import { combinationOf, frozenCombinations, type CombinationRow } from "../../ledger/review/combinations.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import { getWorker, updateWorker } from "../../ledger/workers/workers.js";
import { NO_COMMENTS } from "./card-comments.js";
import type { EngineContext } from "../context.js";
import { journalPromotion } from "../talk/journal.js";
import { alreadyApplied, applyFrozen, RECOVERED_NOTE } from "./apply-frozen.js";
import type { PromoteResult, PromotionPreview } from "./promotion.js";
import { approvalOf, assertDecisionUnchanged, decisionView, latestDecision } from "./target.js";
import type { VerdictCard } from "./verdict-card.js";
import { parentChangeWarnings, type ReviewWarning } from "./warnings.js";
import { workerTreeOf } from "../../domain/workers/worker-tree.js";

export interface CombinedTarget {
  key: string;
  pointer: DeliverablePointer;
  deliverable: CombinedDeliverable;
  path: string;
  sha256: string;
  row: CombinationRow;
}

/** `combined:w2+w3:1`, or `combined:w2+w3` for the pair's newest recorded version. */
export function resolveCombined(ctx: EngineContext, text: string, expectSha256?: string): CombinedTarget {
  const parsed = parseReviewableRef(text);
  if (parsed.kind !== "combined") throw notFound("bad-combined-ref", `"${text}" is not a combined ref; combined versions are combined:w<N>+w<M>:<K> (lower worker first)`, "`docket verdict` lists them");
  const versions = listCombinedVersions(ctx.home, parsed.key);
  const version = parsed.version ?? newestCombined(ctx, parsed.key)?.version;
  if (version === undefined || !versions.includes(version)) throw notFound("no-such-version", `${parsed.key} has no combined version${parsed.version ? ` ${parsed.version}` : ""}`, "`docket verdict` lists what waits for review");
  const read = readCombined(ctx.home, parsed.key, version);
  if (!read.ok) throw refusal("deliverable-invalid", `combined version ${parsed.key}:${version} is missing or invalid (${read.reason}); restore it or combine again`);
  const row = combinationOf(ctx.db, read.deliverable.ref);
  if (!row) throw refusal("combined-unrecorded", `${read.deliverable.ref} was frozen but never recorded (an interrupted combine); nothing changed`, "run the same `docket combine <w> <w>` again to record it");
  if (expectSha256 !== undefined) verifyContent({ ref: read.deliverable.ref, file: read.path, expected: expectSha256, actual: read.sha256 });
  return { key: parsed.key, pointer: { id: read.deliverable.id, version, ref: read.deliverable.ref }, deliverable: read.deliverable, path: read.path, sha256: read.sha256, row };
}

/** The pair's newest recorded combined version, or null (read from the ledger and the file names; no sidecar is parsed). */
export function newestCombined(ctx: EngineContext, key: string): DeliverablePointer | null {
  const version = [...listCombinedVersions(ctx.home, key)].reverse().find((v) => combinationOf(ctx.db, combinedRef(key, v)));
  return version === undefined ? null : { id: combinedId(key), version, ref: combinedRef(key, version) };
}

function sourcePatches(ctx: EngineContext, t: CombinedTarget): string[] {
  return t.deliverable.sources.map((s) => {
    const read = readDeliverable(ctx.home, s.worker, s.version);
    return read.ok ? (read.deliverable.changeSet?.patch ?? "") : "";
  });
}

interface CombinedPromoteInput {
  target: string;
  approve?: boolean;
  yes?: boolean;
  expectSha256?: string;
  /** The pair's newest decision id the card showed (null: none); refused when another landed since. */
  expectDecision?: string | null;
}

interface CombinedPlan {
  target: CombinedTarget;
  files: string[];
  warnings: ReviewWarning[];
  needsConfirmation: boolean;
}

/** Checked before the checkout is touched: approved exactly these bytes, not promoted, no marker residue. */
function planCombined(ctx: EngineContext, input: CombinedPromoteInput): CombinedPlan {
  const t = resolveCombined(ctx, input.target, input.expectSha256);
  assertDecisionUnchanged(ctx.db, t.key, input.expectDecision);
  const promoted = latestDecision(ctx.db, t.pointer.ref, ["promote"]);
  if (promoted) throw refusal("already-promoted", `${t.pointer.ref} was already promoted (${promoted.id}, ${promoted.at}); nothing changed`);
  const approval = approvalOf(ctx.db, t.pointer);
  if (approval) verifyContent({ ref: t.pointer.ref, file: t.path, expected: approval.contentSha256, actual: t.sha256 });
  else if (!input.approve) throw refusal("not-approved", `${t.pointer.ref} is not approved; nothing changed`, "review it with `docket verdict <ref>`, then `docket approve <ref>` or promote with --approve");
  const residue = patchResidue(t.deliverable.changeSet.patch, sourcePatches(ctx, t));
  if (residue.length > 0) throw refusal("conflict-markers", `${t.pointer.ref} holds conflict markers in ${residue.map((r) => r.path).join(", ")}; markers are never promoted, nothing changed`);
  const files = t.deliverable.changeSet.files.map((f) => f.path);
  const root = t.row.projectRoot;
  const warnings = alreadyApplied(ctx, root, t.deliverable.changeSet.patch) ? [] : parentChangeWarnings(ctx, root, { base: t.deliverable.changeSet.base, baseHead: null }, files, t.key).warnings;
  return { target: t, files, warnings, needsConfirmation: warnings.length > 0 };
}

export function previewCombinedPromotion(ctx: EngineContext, input: CombinedPromoteInput): PromotionPreview {
  const plan = planCombined(ctx, input);
  return { ref: plan.target.pointer.ref, files: plan.files, warnings: plan.warnings, needsConfirmation: plan.needsConfirmation };
}

/** The combined patch lands through apply-frozen; the journal credits both workers; each source workspace settles. */
export function promoteCombined(ctx: EngineContext, input: CombinedPromoteInput): PromoteResult {
  const plan = planCombined(ctx, input);
  const t = plan.target;
  if (plan.needsConfirmation && !input.yes) {
    throw refusal("promotion-needs-confirmation", `promoting ${t.pointer.ref} needs confirmation: ${plan.warnings.map((w) => w.text).join("; ")}; nothing changed`, "re-run on a terminal to confirm, or pass --yes");
  }
  const root = t.row.projectRoot;
  const patch = t.deliverable.changeSet.patch;
  const workers = t.deliverable.sources.map((s) => s.worker);
  const { recorded, recovered } = applyFrozen(ctx, {
    ref: t.pointer.ref, root, patch, files: plan.files, request: { ref: t.pointer.ref, approve: Boolean(input.approve) },
    record: (tx, recovered) => {
      assertDecisionUnchanged(tx.db, t.key, input.expectDecision);
      let approval = null;
      if (!approvalOf(tx.db, t.pointer)) {
        if (!input.approve) throw refusal("not-approved", `${t.pointer.ref} is not approved; nothing changed`);
        approval = decisionView(insertDecision(tx, { actor: "human", verb: "approve", worker: t.key, deliverable: t.pointer, note: "approved with promotion", evidenceRefs: [t.pointer.ref], contentSha256: t.sha256 }));
      }
      if (latestDecision(tx.db, t.pointer.ref, ["promote"])) throw refusal("already-promoted", `${t.pointer.ref} was promoted meanwhile`);
      const notes = [...(plan.warnings.length > 0 ? [`confirmed despite: ${plan.warnings.map((w) => w.text).join("; ")}`] : []), ...(recovered ? [RECOVERED_NOTE] : [])];
      const decision = insertDecision(tx, {
        actor: "human", verb: "promote", worker: t.key, deliverable: t.pointer, option: `${plan.files.length} file${plan.files.length === 1 ? "" : "s"}: ${plan.files.join(", ")}`,
        note: notes.length > 0 ? notes.join("; ") : null, evidenceRefs: [t.pointer.ref, ...t.deliverable.sources.map((s) => s.ref)], contentSha256: t.sha256,
      });
      journalPromotion(tx, { projectRoot: root, ref: t.pointer.ref, paths: plan.files, workers, summary: t.deliverable.summary, decision: decision.id });
      for (const w of workers) if (getWorker(tx.db, w)) updateWorker(tx, w, { reviewedAt: tx.now });
      return { decision: decisionView(decision), approval };
    },
  });
  const notes = [
    recovered ? `${root} already held exactly the frozen patch of ${t.pointer.ref}; recorded the promotion now, nothing applied twice` : `promoted ${plan.files.length} file${plan.files.length === 1 ? "" : "s"} from ${t.pointer.ref} into ${root} (working tree only, not committed)`,
    ...t.deliverable.sources.map((s) => settleSource(ctx, s.worker, s.version)),
  ];
  return { ...recorded, files: plan.files, workspace: "combined", notes };
}

/** A source's workspace is reset only when it still holds exactly its own frozen patch (later edits are kept). */
function settleSource(ctx: EngineContext, worker: string, version: number): string {
  const row = getWorker(ctx.db, worker);
  const read = readDeliverable(ctx.home, worker, version);
  const cs = read.ok ? read.deliverable.changeSet : null;
  if (!row || row.workspaceMode !== "isolated" || !cs) return `${worker}: no workspace of its own to reset`;
  try {
    if (!ctx.git.liveEqualsFrozen(workerTreeOf(row), cs.base, cs.patch)) return `${worker} changed its workspace after ${cs.ref}; its workspace was left as it is`;
    ctx.git.resetWorkspace(workerTreeOf(row), cs.base);
    return `${worker}'s workspace was reset to its base (its changes landed in the combined promotion)`;
  } catch (error) {
    return `${worker}'s workspace was left as it is (${(error as Error).message.split("\n")[0]})`;
  }
}

/** The card of a combined version, in the verdict contract's shape (worker: the pair, planCoverage: null). */
export function combinedCard(ctx: EngineContext, target: string): VerdictCard {
  const t = resolveCombined(ctx, target);
  const approval = approvalOf(ctx.db, t.pointer);
  const promoted = latestDecision(ctx.db, t.pointer.ref, ["promote"]);
  const judged = latestDecision(ctx.db, t.pointer.ref, ["approve", "reject", "promote"]);
  const cs = t.deliverable.changeSet;
  const warnings: ReviewWarning[] = promoted ? [] : parentChangeWarnings(ctx, t.row.projectRoot, { base: cs.base, baseHead: null }, cs.files.map((f) => f.path), t.key).warnings;
  const residue = patchResidue(cs.patch, sourcePatches(ctx, t));
  if (residue.length > 0) warnings.push({ kind: "combine", text: `conflict markers in ${residue.map((r) => r.path).join(", ")}: never promoted` });
  const moves: CardMove[] = promoted ? [] : approval
    ? [{ verb: "promote" }, { verb: "reject" }]
    : [{ verb: "approve" }, { verb: "promote", withApproval: true }, { verb: "reject" }];
  const judgment = promoted ? `promoted (${promoted.id})` : approval ? `approved (${approval.id}, ${approval.at})` : judged?.verb === "reject" ? `rejected (${judged.id})` : "not judged";
  const deliverable = {
    schemaVersion: 1 as const, id: t.pointer.id, version: t.pointer.version, ref: t.pointer.ref, createdAt: t.deliverable.createdAt, toolCallId: t.deliverable.operation,
    source: { workerId: t.key, task: t.deliverable.sources.map((s) => s.task).join(" + "), kind: "combined", generation: 0 },
    outcome: t.deliverable.outcome, summary: t.deliverable.summary, body: t.deliverable.body,
    evidence: [{ kind: "note" as const, text: t.deliverable.resolution.kind === "clean" ? "git merge-tree merged both change sets without conflicts" : `the human resolved ${t.deliverable.resolution.contested.join(", ")}` }],
    recommendations: [], items: [], changeSet: cs,
  };
  return {
    worker: t.key, state: promoted ? "promoted" : "ready", deliverable: t.pointer, approved: Boolean(approval), warnings, actions: moves.map(moveText), moves, planCoverage: null, comments: NO_COMMENTS, spend: null,
    detail: {
      task: deliverable.source.task, kind: "combined", exited: false, contained: null, host: null, judgment, questions: [], lastError: null, deliverable, invalid: null, handoff: null,
      planCoverage: null, sha256: t.sha256, notes: [],
    },
  };
}

/** This project's combined versions nobody judged yet (the verdict queue shows them with the ready ones). */
export function unjudgedCombined(ctx: EngineContext): string[] {
  return frozenCombinations(ctx.db, ctx.projectRoot())
    .filter((c) => c.resultRef && !latestDecision(ctx.db, c.resultRef, ["approve", "reject", "promote"]))
    .map((c) => c.resultRef!);
}
