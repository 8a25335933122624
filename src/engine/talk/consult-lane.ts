// The parent agent's side of the consult lane: answer a consult, escalate it to the human with the reason, and move
// consults that waited past the window (or whose lane was turned off) to the human. Each is one command with a decision.

import { workerIdentityIn } from "../../domain/authority.js";
import { refusal, validationError } from "../../domain/errors.js";
import { EXPIRED_REASON, isConsultExpired } from "../../domain/talk/consult.js";
import { assertNoControlCharacters } from "../../domain/work/message-text.js";
import type { DecisionActor } from "../../domain/review/approval.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import { consultInLane, escalateQuestion, pendingConsults, type ConsultRow } from "../../ledger/workers/questions.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import { answerQuestion, openQuestionsOf } from "../../ledger/workers/questions.js";
import { applyLifecycle, lifecycleRowOf, requireWorker } from "../../ledger/workers/workers.js";
import { transition } from "../../domain/workers/lifecycle.js";
import type { EngineContext } from "../context.js";
import { assertHuman } from "../authority.js";
import { pasteToCommandWorker } from "./command-paste.js";

export type { ConsultRow };

/** The consults of this project waiting for the parent agent, oldest first. */
export function consultsForParent(ctx: EngineContext): ConsultRow[] {
  return pendingConsults(ctx.db, ctx.projectRoot());
}

function leftLane(id: string): Error {
  return refusal(
    "consult-not-pending",
    `${id} is no longer waiting for your pi session's model (answered, escalated or dropped); nothing was sent`,
  );
}

export interface ConsultAnswer {
  question: string;
  worker: string;
  message: string;
  decision: string;
}

/** The parent agent's answer: the consult answered, an `answer` message from the parent agent, a parent-agent decision. */
export function answerConsult(ctx: EngineContext, input: { question: string; text: string }): ConsultAnswer {
  assertHuman(ctx, "answer");
  const text = input.text.trim();
  if (text === "") throw validationError("empty-answer", "an answer must not be empty");
  assertNoControlCharacters(text, "answer");
  const r = ctx.commands.run("consult.answer", { question: input.question, text }, (tx) => {
    const q = consultInLane(tx.db, input.question);
    if (!q || !answerQuestion(tx, q.id, text)) throw leftLane(input.question);
    const row = requireWorker(tx.db, q.worker);
    const message = insertMessage(tx, {
      worker: q.worker,
      kind: "answer",
      body: text,
      question: q.id,
      from: "parent-agent",
    });
    const decision = insertDecision(tx, {
      actor: "parent-agent",
      verb: "answer",
      worker: q.worker,
      question: q.id,
      option: text,
      risk: q.risk,
      note: "a consult answered by your pi session's model; not reviewed by you",
    });
    applyLifecycle(
      tx,
      q.worker,
      transition(
        lifecycleRowOf(row),
        { kind: "answered", openQuestions: openQuestionsOf(tx.db, q.worker).length },
        tx.now,
      ),
    );
    insertNotification(tx, {
      kind: "consult-answered",
      worker: q.worker,
      body: `${q.text} → ${text}`,
      forHuman: [`not reviewed by you · recorded as ${decision.id} (docket log)`],
    });
    return { question: q.id, worker: q.worker, message, decision: decision.id };
  }).result;
  pasteToCommandWorker(ctx, r.worker, r.message, text);
  return r;
}

export interface ConsultEscalation {
  question: string;
  worker: string;
  decision: string;
  reason: string;
}

/** One consult moves to the human, with the reason on its question, its notification and a decision row. */
export function escalateConsult(
  ctx: EngineContext,
  input: { question: string; reason: string; actor: Extract<DecisionActor, "parent-agent" | "system"> },
): ConsultEscalation {
  assertHuman(ctx, "answer");
  const reason = input.reason.trim() || "no reason given";
  return ctx.commands.run("consult.escalate", { question: input.question, reason, actor: input.actor }, (tx) => {
    const q = consultInLane(tx.db, input.question);
    if (!q || !escalateQuestion(tx, q.id, reason)) throw leftLane(input.question);
    const decision = insertDecision(tx, {
      actor: input.actor,
      verb: "escalate",
      worker: q.worker,
      question: q.id,
      note: reason,
      risk: q.risk,
    });
    insertNotification(tx, {
      kind: "escalated",
      worker: q.worker,
      body: `(consult, now yours) ${q.text}`,
      forHuman: [
        `escalated: ${reason}`,
        ...(q.context ? [`context: ${q.context}`] : []),
        ...q.options.map((o, i) => `${i + 1}) ${o}`),
        ...(q.recommend ? [`recommended: ${q.recommend}`] : []),
      ],
    });
    return { question: q.id, worker: q.worker, decision: decision.id, reason };
  }).result;
}

/**
 * Consults that waited past `messaging.consultWindowSeconds`, or that sit in a lane the human turned off, become the
 * human's questions now. Run by the parent's sweep and by the human's reads (`ls`, `show`, `verdict`, `attention`),
 * so escalation never depends on a parent session being open. A read-only home changes nothing.
 */
export function escalateOverdueConsults(ctx: EngineContext): ConsultEscalation[] {
  // A worker may read (`docket ls`); moving a question to the human is the human's side's to do.
  if (ctx.readOnly || workerIdentityIn(ctx.env).length > 0) return [];
  const pending = consultsForParent(ctx);
  if (pending.length === 0) return [];
  const { autoAnswer, consultWindowSeconds } = ctx.config().messaging;
  const now = ctx.clock.nowMs();
  const out: ConsultEscalation[] = [];
  for (const q of pending) {
    const reason = !autoAnswer
      ? "the consult lane is off (messaging.autoAnswer)"
      : isConsultExpired(q.createdAt, now, consultWindowSeconds)
        ? EXPIRED_REASON(consultWindowSeconds)
        : undefined;
    if (!reason) continue;
    try {
      out.push(escalateConsult(ctx, { question: q.id, reason, actor: "system" }));
    } catch (error) {
      // Answered or escalated by another process meanwhile: it has left the lane, which is all this sweep wanted.
      if ((error as { code?: string }).code !== "consult-not-pending") throw error;
    }
  }
  return out;
}
