// Judgment verbs on one exact deliverable version: approve, reject, revise, answer, discard.
// Each is one ledger command writing one append-only decision row; approval records judgment only
// (docs/decisions/immutable-deliverables.md).

import { refusal, validationError } from "../../domain/errors.js";
import { placeOf } from "../places/place.js";
import { confirmationRefused } from "../../domain/review/confirmation.js";
import { assertNoControlCharacters } from "../../domain/work/message-text.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import { UNCOUNTED_APPROVAL_NOTE, type DecisionActor } from "../../domain/review/approval.js";
import { insertDecision, type Decision } from "../../ledger/review/decisions.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { answerQuestion, openQuestionsOf, questionDetail } from "../../ledger/workers/questions.js";
import { openQuestionFor } from "./answer-choices.js";
import { transition } from "../../domain/workers/lifecycle.js";
import { applyLifecycle, lifecycleRowOf, requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "./deliverables.js";
import { pasteToCommandWorker } from "../talk/command-paste.js";
import { resolveReviewable } from "./reviewable.js";
import {
  approvalOf,
  assertDecisionUnchanged,
  assertPointerUnchanged,
  decisionView,
  evidenceRefsOf,
  latestDecision,
  olderNote,
  type DecisionView,
  type TargetInput,
} from "./target.js";
import { assertHuman } from "../authority.js";
import { assertShownBinding } from "./shown.js";
import { formatRevisionMessage } from "../../domain/review/revision-message.js";
import { markCommentsSent } from "../../ledger/review/comments.js";
import { draftsToSend, outdatedDraftCount } from "./revision-comments.js";
import { snapshotGate } from "../workers/kind-integrity.js";

export interface JudgeInput extends TargetInput {
  actor?: DecisionActor;
  note?: string;
}

export interface JudgeResult {
  decision: DecisionView;
  /** Human lines beside the decision (older version, already approved, delivery of a note). */
  notes: string[];
}

/** Records approval of one exact version (a worker's or a combined one). Queues nothing, sends nothing, starts nothing. */
export function approve(ctx: EngineContext, input: JudgeInput): JudgeResult {
  assertHuman(ctx, "approve");
  const r = resolveReviewable(ctx, input, "approve");
  const shown = r.shown("approve");
  return ctx.commands.run("review.approve", { ref: r.pointer.ref }, (tx) => {
    r.assertStill(tx, "approve");
    assertDecisionUnchanged(tx.db, r.subject, input.expectDecision);
    const actor = input.actor ?? "human";
    const existing = approvalOf(tx.db, r.pointer);
    // Approving the same bytes again records nothing new; other bytes (the file changed since) are a new judgment.
    if (existing && actor === "human" && existing.contentSha256 === r.sha256) {
      const row = latestDecision(tx.db, r.pointer.ref, [existing.verb]);
      if (row && row.id === existing.id)
        return {
          decision: decisionView(row),
          notes: [...shown, `${r.pointer.ref} was already approved (${row.id}); nothing new recorded`],
        };
    }
    const decision = insertDecision(tx, {
      actor,
      verb: "approve",
      worker: r.subject,
      deliverable: r.pointer,
      note: input.note ?? null,
      evidenceRefs: r.evidenceRefs,
      contentSha256: r.sha256,
    });
    r.settle(tx, "approve");
    const notes = [...shown, ...r.after("approve")];
    if (actor !== "human") notes.push(UNCOUNTED_APPROVAL_NOTE);
    return { decision: decisionView(decision), notes };
  }).result;
}

/** Records a rejection of one exact version; it supersedes an earlier approval of that version. */
export function reject(ctx: EngineContext, input: JudgeInput): JudgeResult {
  assertHuman(ctx, "reject");
  const r = resolveReviewable(ctx, input, "reject");
  const shown = r.shown("reject");
  return ctx.commands.run("review.reject", { ref: r.pointer.ref, note: input.note ?? null }, (tx) => {
    r.assertStill(tx, "reject");
    assertDecisionUnchanged(tx.db, r.subject, input.expectDecision);
    const decision = insertDecision(tx, {
      actor: input.actor ?? "human",
      verb: "reject",
      worker: r.subject,
      deliverable: r.pointer,
      note: nonEmpty(input.note) ?? null,
      evidenceRefs: r.evidenceRefs,
      contentSha256: r.sha256,
    });
    r.settle(tx, "reject");
    return { decision: decisionView(decision), notes: [...shown, ...r.after("reject")] };
  }).result;
}

/**
 * A review note bound to one exact version, sent to the worker with every draft comment of that version as one
 * message; its next accepted done becomes the next version. The note may be left out when there are comments.
 */
export function revise(ctx: EngineContext, input: JudgeInput & { note?: string }): JudgeResult {
  assertHuman(ctx, "revise");
  const note = nonEmpty(input.note);
  if (note !== undefined) assertNoControlCharacters(note, "note");
  // Only a worker's version takes a revision (its worker publishes the next one): every other kind refuses it.
  const target = resolveReviewable(ctx, input, "revise").worker!;
  const shownNotes = assertShownBinding(ctx, target, input, "revise");
  const result = ctx.commands.run("review.revise", { ref: target.pointer.ref, note: note ?? null }, (tx) => {
    const row = target.exact ? requireWorker(tx.db, target.worker.id) : assertPointerUnchanged(tx, target);
    assertDecisionUnchanged(tx.db, row.id, input.expectDecision);
    const comments = draftsToSend(tx.db, target);
    if (note === undefined && comments.length === 0) {
      throw validationError(
        "empty-note",
        "a revision needs a note saying what to change, or draft comments on the current version's lines",
        "`docket revise <w|ref> <note>`, or `docket comment <w> <file>:<line> <text>` first",
      );
    }
    const body = formatRevisionMessage({ ref: target.pointer.ref, version: target.pointer.version, note, comments });
    const decision = insertDecision(tx, {
      actor: input.actor ?? "human",
      verb: "revise",
      worker: row.id,
      deliverable: target.pointer,
      note: note ?? null,
      evidenceRefs: evidenceRefsOf(target),
      contentSha256: target.sha256,
    });
    markCommentsSent(
      tx,
      comments.map((c) => c.id),
      decision.id,
    );
    const message = insertMessage(tx, {
      worker: row.id,
      kind: "review_note",
      body,
      deliverAs: "followUp",
    });
    if (row.reviewedAt !== null) updateWorker(tx, row.id, { reviewedAt: null });
    const sent =
      comments.length > 0
        ? ` with ${comments.length} comment${comments.length === 1 ? "" : "s"} (${comments.map((c) => c.id).join(", ")})`
        : "";
    const notes = [
      ...shownNotes,
      ...olderNote(target),
      `review note ${message}${sent} queued for ${row.id}; its next docket_done becomes v${target.current.version + 1}`,
    ];
    const outdated = outdatedDraftCount(tx.db, target);
    if (outdated > 0)
      notes.push(
        `${outdated} draft comment${outdated === 1 ? "" : "s"} on ${target.pointer.ref} ${outdated === 1 ? "is" : "are"} outdated and ${outdated === 1 ? "was" : "were"} not sent`,
      );
    if (row.exited)
      notes.push(`${row.id} is not running; the note waits in its inbox until \`docket respawn ${row.id}\``);
    return { decision: decisionView(decision), notes, message, body };
  }).result;
  const { body, ...judged } = result;
  return withPaste(ctx, judged, target.worker.id, body);
}

export interface AnswerInput {
  worker: string;
  question?: string;
  text: string;
  actor?: DecisionActor;
  /** The worker's newest decision id the human saw (a rendered card); refused when another landed since. */
  expectDecision?: string | null;
}

/** Answers one open question (the named one, else the oldest): question answered, `answer` message queued, decision. */
export function answer(ctx: EngineContext, input: AnswerInput): JudgeResult {
  assertHuman(ctx, "answer");
  const workerId = normalizeWorkerId(input.worker);
  if (!workerId) throw validationError("bad-worker-id", `"${input.worker}" is not a worker id`, "workers are w<N>");
  const typed = nonEmpty(input.text);
  if (typed === undefined)
    throw validationError("empty-answer", "an answer must not be empty", "`docket answer <w> [--q <id>] <text>`");
  assertNoControlCharacters(typed, "answer");
  if (input.actor === undefined || input.actor === "human") {
    try {
      snapshotGate(ctx, workerId, "discharged"); // this answer discharges an armed plan gate: what had changed before it
    } catch {
      // the snapshot is evidence for the card, never a reason to refuse the human's answer
    }
  }
  const result = ctx.commands.run(
    "review.answer",
    { worker: workerId, question: input.question ?? null, text: typed },
    (tx) => {
      const row = requireWorker(tx.db, workerId);
      assertDecisionUnchanged(tx.db, workerId, input.expectDecision);
      const q = openQuestionFor(tx.db, workerId, input.question);
      const detail = questionDetail(tx.db, q.id);
      const risk = detail?.risk ?? null;
      const text = pickedOption(typed, detail?.options ?? []);
      if (!answerQuestion(tx, q.id, text))
        throw refusal("question-not-open", `${q.id} is no longer open; nothing changed`);
      const message = insertMessage(tx, { worker: workerId, kind: "answer", body: text, question: q.id });
      const decision = insertDecision(tx, {
        actor: input.actor ?? "human",
        verb: "answer",
        worker: workerId,
        deliverable: pointerOf(row) ?? null,
        option: text,
        risk,
        question: q.id,
        evidenceRefs: pointerOf(row) ? [pointerOf(row)!.ref] : [],
      });
      const remaining = openQuestionsOf(tx.db, workerId).length;
      applyLifecycle(
        tx,
        workerId,
        transition(lifecycleRowOf(row), { kind: "answered", openQuestions: remaining }, tx.now),
      );
      const notes = [`answer to ${q.id} queued for ${workerId} (${message})`];
      if (remaining > 0) notes.push(`${workerId} has ${remaining} more open question${remaining === 1 ? "" : "s"}`);
      if (row.exited)
        notes.push(`${workerId} is not running; the answer waits in its inbox until \`docket respawn ${workerId}\``);
      return { decision: decisionView(decision), notes, message, answer: text };
    },
  ).result;
  const { answer: sent, ...judged } = result;
  return withPaste(ctx, judged, workerId, sent);
}

/** As on pi's card: a number within the offered options picks that option; any other text is the answer itself. */
function pickedOption(typed: string, options: readonly string[]): string {
  const n = /^[1-9][0-9]{0,2}$/.test(typed) ? Number(typed) : 0;
  return n >= 1 && n <= options.length ? options[n - 1]! : typed;
}

export interface DiscardInput {
  worker: string;
  actor?: DecisionActor;
  /** As for answer: checked before the workspace is touched. */
  expectDecision?: string | null;
  /** The human confirmed the loss (`--yes`, or yes to the surface's question); without it nothing is touched. */
  confirmed?: boolean;
}

export interface DiscardResult extends JudgeResult {
  files: string[];
}

/** Drops a worker's live changes (workspace reset to its base) and records the decision. The frozen patch stays. */
export function discard(ctx: EngineContext, input: DiscardInput): DiscardResult {
  assertHuman(ctx, "discard");
  const workerId = normalizeWorkerId(input.worker);
  if (!workerId) throw validationError("bad-worker-id", `"${input.worker}" is not a worker id`, "workers are w<N>");
  const row = requireWorker(ctx.db, workerId);
  assertDecisionUnchanged(ctx.db, workerId, input.expectDecision);
  if (!input.confirmed) throw confirmationRefused("discard", workerId);
  if (row.workspaceMode !== "isolated" || !row.base) {
    throw refusal(
      "no-own-workspace",
      `${workerId} works in your checkout (shared); it has no changes of its own to discard`,
    );
  }
  // A worker on a host changed its workspace there: the copy here holds only its base.
  const place = placeOf(ctx, row);
  const files = place.liveChangedPaths(row);
  place.reset(row, row.base);
  try {
    return ctx.commands.run("review.discard", { worker: workerId, files }, (tx) => {
      const now = requireWorker(tx.db, workerId);
      const decision: Decision = insertDecision(tx, {
        actor: input.actor ?? "human",
        verb: "discard",
        worker: workerId,
        deliverable: pointerOf(now) ?? null,
        note:
          files.length === 0
            ? "no live changes"
            : `dropped live changes in ${files.length} file${files.length === 1 ? "" : "s"}: ${files.join(", ")}`,
        evidenceRefs: pointerOf(now) ? [pointerOf(now)!.ref] : [],
      });
      const notes = [
        files.length === 0
          ? `${workerId} had no live changes; workspace is at its base`
          : `dropped ${workerId}'s live changes in ${files.length} file(s); its workspace is back at its base`,
      ];
      if (pointerOf(now)) notes.push(`the frozen ${pointerOf(now)!.ref} is unchanged and still reviewable`);
      return { decision: decisionView(decision), notes, files };
    }).result;
  } catch (error) {
    throw refusal(
      "discard-unrecorded",
      `${workerId}'s workspace WAS reset to its base, but the decision could not be recorded: ${(error as Error).message}`,
    );
  }
}

/** A `--agent command` worker gets the text pasted into its pane too (marked delivered once pasted). */
function withPaste(
  ctx: EngineContext,
  r: JudgeResult & { message: string },
  workerId: string,
  text: string,
): JudgeResult {
  const { message, ...result } = r;
  const paste = pasteToCommandWorker(ctx, workerId, message, text);
  if (!paste) return result;
  const note = paste.pasted
    ? `also pasted into ${workerId}'s pane (best-effort)`
    : `could not paste into ${workerId}'s pane (${paste.reason}); the message waits in its inbox`;
  return { ...result, notes: [...result.notes, note] };
}

function nonEmpty(text: string | undefined): string | undefined {
  return typeof text === "string" && text.trim() !== "" ? text : undefined;
}
