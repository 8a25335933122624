// The card of a combined version, in the verdict contract's shape (worker: the pair, planCoverage: null): its judgment
// worded by the one rule (domain/review/approval.ts) and its moves from the one table (card-moves.ts).

import { formatJudgment } from "../../domain/review/approval.js";
import { moveText } from "../../domain/review/card-actions.js";
import { patchResidue } from "../../domain/review/combine.js";
import type { EngineContext } from "../context.js";
import { NO_COMMENTS } from "./card-comments.js";
import { cardMoves } from "./card-moves.js";
import { sourcePatches, type CombinedTarget } from "./combined.js";
import { approvalOf, judgmentOf, promotionOf } from "./target.js";
import type { VerdictCard } from "./verdict-card.js";
import { parentChangeWarnings, type ReviewWarning } from "./warnings.js";

/** `t`: the combined version as its Reviewable resolved it. */
export function combinedCard(ctx: EngineContext, t: CombinedTarget): VerdictCard {
  const approval = approvalOf(ctx.db, t.pointer);
  const promotion = promotionOf(ctx.db, t.pointer.ref);
  const latest = judgmentOf(ctx.db, t.pointer);
  const cs = t.deliverable.changeSet;
  const files = cs.files.map((f) => f.path);
  const warnings: ReviewWarning[] = promotion
    ? []
    : parentChangeWarnings(ctx, t.row.projectRoot, { base: cs.base, baseHead: null }, files, t.key).warnings;
  const residue = patchResidue(cs.patch, sourcePatches(ctx, t.deliverable));
  if (residue.length > 0)
    warnings.push({
      kind: "combine",
      text: `conflict markers in ${residue.map((r) => r.path).join(", ")}: never promoted`,
    });
  const moves = cardMoves({
    kind: "combined",
    hasVersion: true,
    approved: Boolean(approval),
    promoted: Boolean(promotion),
    patch: cs.patch !== "",
    planLike: false,
    questions: 0,
    failed: false,
    isolated: false,
  });
  const judgment = formatJudgment({ hasVersion: true, promotion, approval, latest });
  const d = t.deliverable;
  const evidence =
    d.resolution.kind === "clean"
      ? "git merge-tree merged both change sets without conflicts"
      : `the human resolved ${d.resolution.contested.join(", ")}`;
  const deliverable = {
    schemaVersion: 1 as const,
    id: t.pointer.id,
    version: t.pointer.version,
    ref: t.pointer.ref,
    createdAt: d.createdAt,
    toolCallId: d.operation,
    source: { workerId: t.key, task: d.sources.map((s) => s.task).join(" + "), kind: "combined", generation: 0 },
    outcome: d.outcome,
    summary: d.summary,
    body: d.body,
    evidence: [{ kind: "note" as const, text: evidence }],
    recommendations: [],
    items: [],
    changeSet: cs,
  };
  return {
    worker: t.key,
    state: promotion ? "promoted" : "ready",
    deliverable: t.pointer,
    approved: Boolean(approval),
    warnings,
    actions: moves.map(moveText),
    moves,
    planCoverage: null,
    comments: NO_COMMENTS,
    spend: null,
    detail: {
      task: deliverable.source.task,
      kind: "combined",
      exited: false,
      contained: null,
      network: null,
      host: null,
      judgment,
      questions: [],
      lastError: null,
      findings: [],
      deliverable,
      invalid: null,
      handoff: null,
      planCoverage: null,
      sha256: t.sha256,
      notes: [],
    },
  };
}
