// The consult lane inside the human's pi session (only with `messaging.autoAnswer` on): each consult is put to the
// session's own model as a separate request — the human's conversation is read, never written — and its answer or
// escalation is recorded as a parent-agent decision. Past the window, the consult becomes the human's question.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { completeSimple, type AssistantMessage, type Tool } from "@mariozechner/pi-ai";
import { Type } from "typebox";
import {
  ANSWER_TOOL,
  CONSULT_SYSTEM_PROMPT,
  ESCALATE_TOOL,
  EXPIRED_REASON,
  formatConsultRequest,
  formatTranscript,
  parseConsultReply,
  type TranscriptLine,
} from "../../../domain/talk/consult.js";
import type { EngineContext } from "../../../engine/context.js";
import { wrapperNonce } from "./nonce.js";
import {
  answerConsult,
  consultsForParent,
  escalateConsult,
  escalateOverdueConsults,
  type ConsultRow,
} from "../../../engine/talk/consult-lane.js";

const TOOLS: Tool[] = [
  {
    name: ANSWER_TOOL,
    description: "Answer the worker's question of fact.",
    parameters: Type.Object({ answer: Type.String({ description: "the answer, as the worker should read it" }) }),
  },
  {
    name: ESCALATE_TOOL,
    description: "Give the question to the human instead.",
    parameters: Type.Object({ reason: Type.String({ description: "one line: why the human should decide" }) }),
  },
];

/** The human's session as plain text: user and assistant words only (tool output and Docket's own lines are left out). */
function transcriptOf(ctx: ExtensionContext): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  for (const entry of ctx.sessionManager.getBranch()) {
    if (entry.type !== "message") continue;
    const m = (entry as { message?: { role?: string; content?: unknown } }).message;
    if (m?.role !== "user" && m?.role !== "assistant") continue;
    const text =
      typeof m.content === "string"
        ? m.content
        : Array.isArray(m.content)
          ? (m.content as { type?: string; text?: string }[])
              .filter((b) => b.type === "text")
              .map((b) => b.text ?? "")
              .join("\n")
          : "";
    lines.push({ role: m.role, text });
  }
  return lines;
}

export interface ConsultLane {
  /** Escalates what is overdue and asks the model about each new consult (one at a time). */
  sweep(): void;
  stop(): void;
}

/** Errors the lane cannot hand to anyone else are shown in the footer (the consult itself still escalates on time). */
export function startConsultLane(
  ctx: ExtensionContext,
  engine: () => EngineContext,
  report: (message: string) => void,
): ConsultLane {
  let busy = false;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();

  const settle = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      // Answered or escalated elsewhere meanwhile (the human, another session, the window): it left the lane already.
      if ((error as { code?: string }).code !== "consult-not-pending")
        report(`docket · consult lane: ${(error as Error).message}`);
    }
  };

  async function ask(e: EngineContext, q: ConsultRow, windowSeconds: number): Promise<void> {
    const model = ctx.model;
    if (!model)
      return settle(() =>
        escalateConsult(e, {
          question: q.id,
          reason: "your pi session has no model selected",
          actor: "parent-agent",
        }),
      );
    const auth = await ctx.modelRegistry.getApiKeyAndHeaders(model);
    if (!auth.ok)
      return settle(() =>
        escalateConsult(e, {
          question: q.id,
          reason: `your pi session's model has no credentials (${auth.error})`,
          actor: "parent-agent",
        }),
      );
    const controller = new AbortController();
    const left = Math.max(0, Date.parse(q.createdAt) + windowSeconds * 1000 - e.clock.nowMs());
    const timer = setTimeout(() => controller.abort(), left);
    timers.add(timer);
    let reply: AssistantMessage;
    try {
      const text = formatConsultRequest({ ...q, worker: q.worker }, formatTranscript(transcriptOf(ctx)), wrapperNonce);
      reply = await completeSimple(
        model,
        {
          systemPrompt: CONSULT_SYSTEM_PROMPT,
          messages: [{ role: "user", content: [{ type: "text", text }], timestamp: Date.now() }],
          tools: TOOLS,
        },
        {
          ...(auth.apiKey ? { apiKey: auth.apiKey } : {}),
          ...(auth.headers ? { headers: auth.headers } : {}),
          signal: controller.signal,
        },
      );
    } catch (error) {
      reply = {
        role: "assistant",
        content: [],
        stopReason: controller.signal.aborted ? "aborted" : "error",
        errorMessage: (error as Error).message,
      } as unknown as AssistantMessage;
    } finally {
      clearTimeout(timer);
      timers.delete(timer);
    }
    if (stopped) return;
    if (controller.signal.aborted)
      return settle(() =>
        escalateConsult(e, { question: q.id, reason: EXPIRED_REASON(windowSeconds), actor: "system" }),
      );
    const parsed = parseConsultReply(reply as never);
    if (parsed.kind === "answer") settle(() => answerConsult(e, { question: q.id, text: parsed.text }));
    else settle(() => escalateConsult(e, { question: q.id, reason: parsed.reason, actor: "parent-agent" }));
  }

  async function drain(): Promise<void> {
    if (busy || stopped) return;
    busy = true;
    try {
      for (;;) {
        const e = engine();
        escalateOverdueConsults(e);
        const { autoAnswer, consultWindowSeconds } = e.config().messaging;
        const next = autoAnswer ? consultsForParent(e)[0] : undefined;
        if (!next || stopped) break;
        await ask(e, next, consultWindowSeconds);
      }
    } catch (error) {
      report(`docket · consult lane: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
  }

  return {
    sweep: () => void drain(),
    stop: () => {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
