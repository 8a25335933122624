// `docket verdict [<w>]`: the card for one exact version (evidence first, then what the worker says, then actions)
// with overlap and parent-moved warnings, or the queue of workers needing judgment. Reads frozen data only.

import { openFindingsOf } from "../../ledger/workers/findings.js";
import { quotePath } from "../../domain/text/quote-path.js";
import { networkLine } from "../../domain/workers/network-summary.js";
import { networkSummary } from "../workers/network-view.js";
import { EMPTY_TOTALS, formatCost, formatSpend } from "../../domain/workers/spend.js";
import { refreshSpend, workerSpend } from "../workers/spend.js";
import type { Worker } from "../../domain/workers/worker.js";
import { describeFileChange } from "../../domain/deliverables/change-set.js";
import type { DeliverablePointer, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { validationError, type DocketError } from "../../domain/errors.js";
import { contentMismatch } from "../../domain/review/content-binding.js";
import { parsePlan } from "../../domain/plans/plan-contract.js";
import { isPlanLike } from "../../domain/plans/plan-gate.js";
import { formatJudgment } from "../../domain/review/approval.js";
import { moveText, type CardMove, type CardVerb } from "../../domain/review/card-actions.js";
import { queueRank } from "../../domain/review/queue-rank.js";
import { queueCandidates } from "../../ledger/review/review-rows.js";
import { questionDetail, openQuestionsOf } from "../../ledger/workers/questions.js";
import { getWorkerEverRecorded, requireWorker } from "../../ledger/workers/workers.js";
import { openNotesOf } from "../../ledger/talk/notes.js";
import { readSnapshot } from "../../ledger/core/snapshot.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "./deliverables.js";
import { derivePlanCoverage } from "./plan-coverage.js";
import { approvalOf, judgmentOf, latestDecision, promotionOf } from "./target.js";
import { reviewFacts, type ReviewFacts } from "./review-facts.js";
import { integrityWarnings } from "../workers/kind-integrity.js";
import { parentQueryOf, resolveReviewWarnings, type OverlapWithPeer, type ReviewWarning } from "./warnings.js";
import { previewCombine } from "./combine-preview.js";
import { producedBeforeWarning } from "./base-moved.js";
import { escalateOverdueConsults } from "../talk/consult-lane.js";
import { unjudgedCombined } from "./combined.js";
import { combinedCard } from "./combined-card.js";
import { cardMoves } from "./card-moves.js";
import {
  parseReviewableRef,
  workerCurrentRef,
  type ReviewableRef,
  type WorkerVersionRef,
} from "../../domain/deliverables/refs.js";
import { reviewableOf } from "./reviewable.js";
import { cardComments, formatCardComments, NO_COMMENTS } from "./card-comments.js";
import type { CardNote, VerdictCard, VerdictQuestion } from "./verdict-card.js";

export type { CardNote, VerdictCard, VerdictQuestion };

function questionsOf(ctx: EngineContext, worker: string): VerdictQuestion[] {
  return openQuestionsOf(ctx.db, worker).map((q) => {
    const detail = questionDetail(ctx.db, q.id);
    return {
      id: q.id,
      text: q.text,
      options: detail?.options ?? [],
      recommend: detail?.recommend ?? null,
      risk: detail?.risk ?? null,
      consult: detail?.consult ?? null,
    };
  });
}

const move = (verb: CardVerb, extra: Omit<CardMove, "verb"> = {}): CardMove => ({ verb, ...extra });

function movesFor(
  row: Worker,
  d: WorkerDeliverable | null,
  approved: boolean,
  promoted: boolean,
  questions: number,
): CardMove[] {
  const patch = Boolean(d?.changeSet && d.changeSet.patch !== "");
  return cardMoves({
    kind: "worker",
    hasVersion: d !== null,
    approved,
    promoted,
    patch,
    planLike: d !== null && approved && !patch && isPlanLike(d.outcome, parsePlan(d.body)),
    questions,
    failed: row.state === "failed",
    isolated: row.workspaceMode === "isolated",
  });
}

interface CardOptions {
  version?: number;
  /** Shared by a queue's cards. */
  facts?: ReviewFacts;
  /** Measure Combine's offer with a dry merge (`merges clean, 2 files`); the queue leaves it to each card (git is costly). */
  dryMerge?: boolean;
  /** The worker's spend records were read just before (the queue reads every card's at once). */
  spendRead?: boolean;
}

/**
 * The card of one worker's exact version: current by default, or the exact ref named. A version whose sidecar changed
 * since it was approved is refused (`deliverable-tampered`, naming the file and both hashes); nothing is offered on it.
 */
export function verdictCard(ctx: EngineContext, target: string, options: CardOptions = {}): VerdictCard {
  return cardOf(ctx, parseReviewableRef(target), options);
}

/** The card of a ref already parsed (where the command took its text): a worker's version or a combined one. */
export function cardOf(ctx: EngineContext, ref: ReviewableRef, options: CardOptions = {}): VerdictCard {
  if (ref.kind === "combined") return combinedCard(ctx, reviewableOf(ctx, ref, {}, "verdict").combined!);
  if (ref.kind !== "worker")
    throw validationError(
      "bad-worker-id",
      `"${ref.text}" is not a worker or deliverable ref`,
      "use w<N> or worker-deliverable:w<N>:<K>",
    );
  const { card, tampered } = buildCard(ctx, ref, options);
  if (tampered) throw tampered;
  return card;
}

/** The card, and the tampering refusal when an approved version's bytes changed (the queue shows it as a warning). */
function buildCard(
  ctx: EngineContext,
  ref: WorkerVersionRef,
  given: CardOptions = {},
): { card: VerdictCard; tampered?: DocketError } {
  // One run's facts, the queue's or this card's own: the card's sidecar is read once, its peers' overlap checks included.
  const options = { ...given, facts: given.facts ?? reviewFacts(ctx) };
  const facts = cardFacts(ctx, ref, options);
  const judged = cardJudgment(ctx, facts);
  const { row, pointer, deliverable, invalid, content } = facts;
  const coverage = derivePlanCoverage(ctx, row, deliverable);
  const questions = questionsOf(ctx, row.id);
  const { warnings, offers } = cardWarnings(ctx, facts, judged, coverage, options);
  const { approval, tampered, promoted, combined } = judged;
  const moves =
    invalid || tampered
      ? [move("revise"), ...(tampered ? [move("reject")] : []), ...(row.state === "failed" ? [move("respawn")] : [])]
      : combined
        ? questions.length > 0
          ? [move("answer"), move("tell")]
          : []
        : [...movesFor(row, deliverable, Boolean(approval), promoted, questions.length), ...offers];
  const card: VerdictCard = {
    worker: row.id,
    state: row.state,
    deliverable: pointer,
    approved: Boolean(approval),
    warnings,
    actions: moves.map(moveText),
    moves,
    detail: {
      task: row.task,
      kind: row.kind,
      exited: row.exited,
      contained: row.contained,
      host: row.execution?.host ?? null,
      network: networkSummary(ctx, row),
      judgment: judged.judgment,
      questions,
      lastError: row.lastError,
      findings: openFindingsOf(ctx.db, row.id).map((f) => ({ kind: f.kind, text: f.text, at: f.foundAt })),
      deliverable,
      invalid,
      handoff: row.sourceHandoff,
      planCoverage: coverage ? `${coverage.warning ? "⚠ " : ""}${coverage.line}` : null,
      sha256: content?.sha256 ?? null,
      notes: openNotesOf(ctx.db, row.id).map((n) => ({ id: n.id, text: n.text, suggested: n.suggested })),
    },
    planCoverage: coverage?.coverage ?? null,
    comments:
      pointer && deliverable
        ? cardComments(ctx, { worker: row.id, pointer, deliverable, currentRef: pointerOf(row)?.ref })
        : NO_COMMENTS,
    spend: cardSpend(ctx, row, pointer?.version ?? null, options.spendRead === true),
  };
  return { card, ...(tampered ? { tampered } : {}) };
}

/** What the card is of: the worker as of the version, the frozen sidecar (or why it cannot be read) and its hash. */
interface CardFacts {
  row: Worker;
  pointer: DeliverablePointer | null;
  deliverable: WorkerDeliverable | null;
  invalid: string | null;
  content: { path: string; sha256: string } | null;
}

/** Read as the worker's Reviewable (the version every verb judges), or the worker alone before its first version. */
function cardFacts(ctx: EngineContext, ref: WorkerVersionRef, options: CardOptions): CardFacts {
  // A deleted worker's card opens by its exact ref only: its versions stay, the worker does not.
  const row =
    (ref.version !== undefined && getWorkerEverRecorded(ctx.db, ref.worker)) || requireWorker(ctx.db, ref.worker);
  if (!pointerOf(row)) return { row, pointer: null, deliverable: null, invalid: null, content: null };
  try {
    const r = reviewableOf(ctx, ref, { version: options.version }, "verdict", options.facts?.sidecar);
    const t = r.worker!;
    return {
      row: t.worker,
      pointer: r.pointer,
      deliverable: t.deliverable,
      invalid: null,
      content: { path: r.path, sha256: r.sha256 },
    };
  } catch (error) {
    // A missing/corrupt sidecar is shown as such on the card; nothing falls back to live state.
    if ((error as { code?: string }).code !== "deliverable-invalid") throw error;
    return { row, pointer: pointerOf(row)!, deliverable: null, invalid: (error as Error).message, content: null };
  }
}

/** The version's judgment: its approval (unless its bytes changed since), promotion, newest verdict, and the line saying so. */
function cardJudgment(ctx: EngineContext, { pointer, content }: CardFacts) {
  const approved = pointer ? approvalOf(ctx.db, pointer) : undefined;
  const tampered =
    approved && content
      ? contentMismatch({
          ref: pointer!.ref,
          file: content.path,
          expected: approved.contentSha256,
          actual: content.sha256,
        })
      : undefined;
  const approval = tampered ? undefined : approved;
  const promotion = pointer ? promotionOf(ctx.db, pointer.ref) : undefined;
  const latest = pointer ? judgmentOf(ctx.db, pointer) : undefined;
  const combined = latest?.verb === "combine" ? latestDecision(ctx.db, pointer!.ref, ["combine"]) : undefined;
  const revision = pointer && !latest ? latestDecision(ctx.db, pointer.ref, ["revise"]) : undefined;
  const judgment = formatJudgment({
    hasVersion: pointer !== null,
    tamperedApproval: tampered ? approved : undefined,
    promotion,
    approval,
    latest,
    ...(combined ? { combined: { id: combined.id, into: combined.option ?? "" } } : {}),
    ...(revision ? { revision: { id: revision.id } } : {}),
  });
  return { approval, tampered, promoted: promotion !== undefined, latest, combined, judgment };
}

/** Every warning the card carries, and the Combine offers the overlap warnings found along the way. */
function cardWarnings(
  ctx: EngineContext,
  { row, pointer, deliverable, invalid }: CardFacts,
  judged: ReturnType<typeof cardJudgment>,
  coverage: ReturnType<typeof derivePlanCoverage>,
  options: CardOptions & { facts: ReviewFacts },
): { warnings: ReviewWarning[]; offers: CardMove[] } {
  const warnings: ReviewWarning[] = [];
  const offers: CardMove[] = [];
  if (coverage?.warning) warnings.push({ kind: "plan-coverage", text: coverage.line });
  if (invalid) warnings.push({ kind: "deliverable-invalid", text: invalid });
  if (judged.tampered) warnings.push({ kind: "deliverable-tampered", text: judged.tampered.message });
  warnings.push(...integrityWarnings(ctx, row));
  if (pointer && deliverable && !judged.promoted && !judged.combined) {
    const { facts } = options;
    const review = resolveReviewWarnings(ctx, row, pointer, deliverable, facts);
    warnings.push(...review.warnings);
    for (const peer of combinablePeers(review.overlaps)) {
      if (options.dryMerge === false) {
        warnings.push({
          kind: "combine",
          text: `Combine with ${peer} · ${requireWorker(ctx.db, peer).task.slice(0, 40)} · its card measures the merge`,
        });
        offers.push(move("combine", { peer }));
        continue;
      }
      const preview = previewCombine(ctx, pointer.ref, peer, facts);
      warnings.push({ kind: "combine", text: `Combine with ${peer} · ${preview.task.slice(0, 40)} · ${preview.text}` });
      if (preview.possible) offers.push(move("combine", { peer }));
    }
  } else if (pointer && deliverable && pointer.version < (pointerOf(row)?.version ?? 0)) {
    warnings.push({
      kind: "older-version",
      text: `this is v${pointer.version}; ${row.id}'s current version is v${pointerOf(row)!.version}`,
    });
  }
  if (pointer && deliverable && !judged.latest) {
    const moved = producedBeforeWarning(ctx, row, deliverable);
    if (moved) warnings.push(moved);
  }
  return { warnings, offers };
}

/** Peers whose overlap with this version is contested or adjacent and not already promoted: Combine can merge them. */
function combinablePeers(overlaps: readonly OverlapWithPeer[]): string[] {
  return [...new Set(overlaps.filter((o) => o.grade !== "same-file" && !o.promotedBy).map((o) => o.otherWorker))];
}

/** The card's first action as a command that runs as written (an answer picks option 1, or says what it is). */
function exampleCommand(card: VerdictCard, subject: string): string {
  const verb = card.actions[0]!.split(" ")[0]!;
  if (verb === "answer")
    return `docket answer ${card.worker} ${card.detail.questions[0]?.options.length ? "1" : '"<your answer>"'}`;
  if (verb === "tell") return `docket tell ${card.worker} "<your message>"`;
  return `docket ${verb} ${subject}`;
}

/**
 * Workers of this project needing judgment: open questions first, then failures, then unjudged ready versions; newest
 * first. Linear in queue + fleet: peers' patches are read and parsed once, and git is asked once per distinct base.
 * What it writes (overdue consults escalated, spend read) comes first; every card is then read from one snapshot.
 */
export function verdictQueue(ctx: EngineContext): VerdictCard[] {
  escalateOverdueConsults(ctx);
  const root = ctx.projectRoot();
  const ranked = readSnapshot(ctx.db, () => rankedForJudgment(ctx, root));
  refreshSpend(
    ctx,
    ranked.map(({ row }) => row),
  );
  return readSnapshot(ctx.db, () => queueCards(ctx, root, ranked));
}

interface Ranked {
  rank: number;
  row: Worker;
}

/** Read in one query of the workers that may need judgment only: a settled worker is never read. */
function rankedForJudgment(ctx: EngineContext, root: string): Ranked[] {
  const ranked: Ranked[] = [];
  for (const { row, openQuestions, acted } of queueCandidates(ctx.db, root)) {
    // A version the human asked to revise waits on its worker, not on the human: it leaves the queue like a judged one.
    const rank = queueRank({
      openQuestions,
      state: row.state,
      reviewedAt: row.reviewedAt,
      hasVersion: Boolean(pointerOf(row)),
      judged: acted,
    });
    if (rank !== undefined) ranked.push({ rank, row });
  }
  return ranked.sort((a, b) => a.rank - b.rank || b.row.seq - a.row.seq);
}

function queueCards(ctx: EngineContext, root: string, ranked: readonly Ranked[]): VerdictCard[] {
  const facts = reviewFacts(ctx);
  // Only the queued workers' own patches: another worker's sidecar is read only when a card's paths meet its edits.
  facts.prefetchParentChanges(
    root,
    ranked.flatMap(({ row }) => {
      const peer = facts.pendingPeer(root, row.id);
      return peer ? [parentQueryOf(peer.row, peer.change)] : [];
    }),
  );
  const cards = ranked.map(
    (r) => buildCard(ctx, workerCurrentRef(r.row.id), { facts, dryMerge: false, spendRead: true }).card,
  );
  // Combined versions waiting for judgment come with the ready ones, after open questions and failures.
  const firstReady = ranked.findIndex((r) => r.rank === 2);
  cards.splice(
    firstReady === -1 ? cards.length : firstReady,
    0,
    ...unjudgedCombined(ctx)
      .reverse()
      .map((ref) => cardOf(ctx, ref)),
  );
  return cards;
}

function cardSpend(ctx: EngineContext, row: Worker, version: number | null, read: boolean): VerdictCard["spend"] {
  const s = workerSpend(ctx, row, { read });
  if (s.unmeasured) return null;
  return {
    version: version === null ? null : (s.versions.find((v) => v.version === version)?.totals ?? { ...EMPTY_TOTALS }),
    worker: s.total ?? { ...EMPTY_TOTALS },
  };
}

/** The text card: header, deliverable line, warnings, evidence first, then what the worker says, then actions. */
export function formatVerdictCard(card: VerdictCard): string[] {
  const d = card.detail.deliverable;
  const out: string[] = [
    `${card.worker} · ${card.detail.task.slice(0, 60)} · ${card.state}${card.detail.exited ? " · not running" : ""}${card.detail.contained === null ? "" : card.detail.contained ? " · contained" : " · not contained"}`,
  ];
  const network = card.detail.network && networkLine(card.detail.network);
  if (network) out.push(network);
  if (card.deliverable) {
    out.push(
      `v${card.deliverable.version} · ${card.deliverable.ref}${card.detail.handoff ? ` · handoff ${card.detail.handoff.sourceRef}` : ""} · ${card.detail.judgment}`,
    );
  } else out.push(card.detail.judgment);
  if (card.spend)
    out.push(
      `${card.spend.version ? `this version: ${formatSpend(card.spend.version)}; ` : ""}worker so far: ${formatCost(card.spend.worker)}`,
    );
  for (const w of card.warnings) out.push(`⚠ ${w.text}`);
  if (card.detail.questions.length > 0) {
    out.push("", "Questions");
    for (const q of card.detail.questions) {
      const lane = !q.consult
        ? ""
        : q.consult.audience === "parent-agent"
          ? " (consult · with your pi session's model)"
          : q.consult.escalation
            ? ` (consult · escalated: ${q.consult.escalation})`
            : " (consult)";
      out.push(`  ${q.id}: ${q.text}${lane}`);
      if (q.consult?.context) out.push(`    context: ${q.consult.context}`);
      q.options.forEach((o, i) => out.push(`    ${i + 1}. ${o}${o === q.recommend ? " · recommended" : ""}`));
      if (q.risk) out.push(`    ⚠ risk: ${q.risk}`);
    }
  }
  if (card.detail.notes.length > 0) {
    out.push("", "Notes (for you; no model saw them)");
    for (const n of card.detail.notes)
      out.push(
        `  ${n.id}: ${n.text}${n.suggested.length > 0 ? ` · suggested for ${n.suggested.join(", ")} (docket broadcast --from ${n.id})` : ""}`,
      );
  }
  if (card.state === "failed" && card.detail.lastError) out.push("", "Failure", `  ${card.detail.lastError}`);
  if (card.detail.findings.length > 0)
    out.push("", "Seen (docket show says more)", ...card.detail.findings.map((f) => `  ${f.kind}: ${f.text}`));
  if (d) {
    out.push("", "Evidence");
    const cs = d.changeSet;
    if (cs && cs.files.length > 0) {
      const add = cs.files.reduce((n, f) => n + f.additions, 0);
      const del = cs.files.reduce((n, f) => n + f.deletions, 0);
      out.push(
        `  ${cs.files.length} file${cs.files.length === 1 ? "" : "s"} · +${add} −${del} · ${cs.hunks} hunk${cs.hunks === 1 ? "" : "s"}`,
      );
      for (const f of cs.files.slice(0, 8))
        out.push(
          `    ${f.special || f.decoded !== undefined ? `${quotePath(f.path)}: ${describeFileChange(f)}` : `${f.binary ? "binary" : `+${f.additions} −${f.deletions}`.padEnd(10)} ${quotePath(f.path)}`}`,
        );
      for (const f of cs.files.filter((x) => x.decoded !== undefined))
        out.push(
          `  ! ${quotePath(f.path)} is text at the base but frozen as a binary patch; decoded change:`,
          ...f
            .decoded!.split("\n")
            .filter((l) => l !== "")
            .slice(0, 40)
            .map((l) => `      ${l}`),
        );
      if (cs.files.length > 8) out.push(`    … ${cs.files.length - 8} more (docket diff ${card.worker})`);
    } else
      out.push(
        card.warnings.some((w) => w.kind === "checkout-changed")
          ? "  no change set of its own, but your checkout changed (⚠ above)"
          : "  no file changes",
      );
    if (card.detail.planCoverage) out.push(`  ${card.detail.planCoverage}`);
    const kinds = [...new Set(d.evidence.map((e) => e.kind))];
    for (const k of kinds) for (const e of d.evidence.filter((x) => x.kind === k)) out.push(`  ${k}: ${e.text}`);
    if (d.evidence.length === 0) out.push("  no typed evidence given");
    out.push("", `Worker says (${d.outcome})`, `  ${d.summary}`);
    for (const r of d.recommendations.slice(0, 3)) out.push(`  → ${r}`);
    out.push(`  full text: docket report ${card.deliverable!.ref}`);
    out.push(...formatCardComments(card.comments, card.worker));
  } else if (card.detail.invalid) out.push("", card.detail.invalid);
  const subject = card.deliverable?.ref ?? card.worker;
  out.push("", `Actions: ${card.actions.length > 0 ? card.actions.join(" · ") : "none"}`);
  if (card.actions.length > 0) out.push(`  e.g. ${exampleCommand(card, subject)}`);
  return out;
}
