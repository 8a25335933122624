// The two coordination calls of the worker protocol: docket_consult (a question for the parent agent, ending the turn)
// and docket_note (a notice for the human, changing nothing). Both fenced, both idempotent by call id.

import { refusal, validationError } from "../../domain/errors.js";
import { optionalKey } from "../../domain/idempotency.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import { assertNoControlCharacters } from "../../domain/work/message-text.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { insertNote, openNoteCount } from "../../ledger/talk/notes.js";
import { openQuestionsOf } from "../../ledger/workers/questions.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import { insertQuestion } from "../../ledger/workers/questions.js";
import { applyLifecycle, lifecycleRowOf } from "../../ledger/workers/workers.js";
import { runFenced } from "./fenced.js";
import { transition } from "../../domain/workers/lifecycle.js";
import type { EngineContext } from "../context.js";
import { checkCallId, MAX_OPTIONS } from "./protocol.js";

export interface ConsultInput {
  question: string;
  context?: string;
  options?: string[];
  recommend?: string;
  risk?: string;
  callId?: string;
}

export interface ConsultResult {
  question: string;
  /** Who will answer: the parent agent (the human opted in), or the human (the lane is off). */
  audience: "parent-agent" | "human";
  state: "needs_input";
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/**
 * A question of fact for the parent agent → needs_input (shown `consulting` while the parent agent holds it). With
 * `messaging.autoAnswer` off (the default) it is an ordinary question for the human, marked as a consult.
 */
export function consult(ctx: EngineContext, who: WorkerIdentity, input: ConsultInput): ConsultResult {
  const question = text(input.question);
  if (!question) throw validationError("question-empty", "docket_consult needs a question: say what fact you need");
  const options = (input.options ?? []).map((o) => String(o).trim()).filter((o) => o !== "");
  if (options.length > MAX_OPTIONS)
    throw validationError(
      "too-many-options",
      `docket_consult takes at most ${MAX_OPTIONS} options; got ${options.length}`,
    );
  const context = text(input.context);
  const recommend = text(input.recommend);
  const risk = text(input.risk);
  const callId = input.callId === undefined || input.callId === "" ? undefined : checkCallId(input.callId);
  const audience: ConsultResult["audience"] = ctx.config().messaging.autoAnswer ? "parent-agent" : "human";
  return runFenced(
    ctx,
    {
      command: "protocol.consult",
      who,
      request: { who, question, context, options, recommend, risk },
      key: optionalKey({ tool: "consult", worker: who.worker, callId }),
    },
    (tx, row) => {
      const open = openQuestionsOf(tx.db, who.worker).length;
      if (open >= MAX_OPEN_QUESTIONS) {
        throw refusal(
          "too-many-consults",
          `${who.worker} already has ${open} open questions, the most a worker may hold; nothing was asked`,
          "wait for the answers (they arrive as messages), or put what you found in docket_done",
        );
      }
      const id = insertQuestion(tx, {
        worker: who.worker,
        generation: who.generation,
        text: question,
        options,
        recommend,
        risk,
        consult: { audience, context },
      });
      applyLifecycle(tx, who.worker, transition(lifecycleRowOf(row), { kind: "asked" }, tx.now));
      if (audience === "human") {
        // The lane is off: the human answers it like any question, and sees that it was meant for the parent agent.
        insertNotification(tx, {
          kind: "question",
          worker: who.worker,
          body: `(consult) ${question}`,
          forHuman: [
            ...(context ? [`context: ${context}`] : []),
            ...options.map((o, i) => `${i + 1}) ${o}`),
            ...(recommend ? [`recommended: ${recommend}`] : []),
          ],
        });
      }
      return { question: id, audience, state: "needs_input" as const };
    },
  );
}

export interface NoteInput {
  text: string;
  /** Workers the note suggests telling (w<N>); a suggestion only, never routed. */
  to?: string[];
  callId?: string;
}

export interface NoteResult {
  note: string;
  notification: string;
  suggested: string[];
}

export const MAX_NOTE_CHARS = 4000;
/** Per worker: notes the human has not dismissed, and open questions (consults included). A flood is refused at the call. */
export const MAX_OPEN_NOTES = 20;
export const MAX_OPEN_QUESTIONS = 5;

/** A notice for the human: no state change, no message to anyone, never a deliverable. */
export function note(ctx: EngineContext, who: WorkerIdentity, input: NoteInput): NoteResult {
  const body = text(input.text);
  if (!body)
    throw validationError(
      "note-empty",
      "docket_note needs text: say what the human (or other workers) should know; nothing was recorded",
    );
  if (body.length > MAX_NOTE_CHARS)
    throw validationError(
      "note-too-long",
      `a note is at most ${MAX_NOTE_CHARS} characters; got ${body.length}. Put long findings in docket_done`,
    );
  // Shown on the human's terminal and in pi: an escape sequence there would be a keystroke, not text.
  assertNoControlCharacters(body, "note");
  const suggested: string[] = [];
  for (const raw of input.to ?? []) {
    const id = normalizeWorkerId(String(raw));
    if (!id)
      throw validationError("bad-worker-id", `note recipient "${String(raw)}" is not a worker id; workers are w<N>`);
    if (id !== who.worker && !suggested.includes(id)) suggested.push(id);
  }
  const callId = input.callId === undefined || input.callId === "" ? undefined : checkCallId(input.callId);
  return runFenced(
    ctx,
    {
      command: "protocol.note",
      who,
      request: { who, body, suggested },
      key: optionalKey({ tool: "note", worker: who.worker, callId }),
    },
    (tx) => {
      const open = openNoteCount(tx.db, who.worker);
      if (open >= MAX_OPEN_NOTES) {
        throw refusal(
          "too-many-notes",
          `${who.worker} already has ${open} notes the human has not dismissed, the most a worker may hold; nothing was recorded`,
          "put the rest in docket_done, or wait until the human dismisses some",
        );
      }
      const notification = insertNotification(tx, {
        kind: "note",
        worker: who.worker,
        body,
        forHuman: [...(suggested.length > 0 ? [`suggested for ${suggested.join(", ")}`] : [])],
      });
      const id = insertNote(tx, {
        worker: who.worker,
        generation: who.generation,
        text: body,
        suggested,
        notification,
      });
      return { note: id, notification, suggested };
    },
  );
}
