// The worker role of the pi extension: guardrails in the system prompt, heartbeats, activity events, inbox delivery.
// Delivery is observed, never assumed: claimed → delivered, and read only when pi is seen starting that user message.

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { isDocketError } from "../../../domain/errors.js";
import { HEARTBEAT_INTERVAL_MS } from "../../../domain/workers/lifecycle.js";
import { parseWorkerIdentity, type WorkerIdentity } from "../../../domain/workers/identity.js";
import { openEngine, type EngineContext } from "../../../engine/context.js";
import { claimInbox, formatInboxMessage, inboxHasQueued, ledgerVersion, markInboxRead } from "../../../engine/talk/inbox.js";
import { recordHeartbeat, recordTurn } from "../../../engine/workers/lifecycle.js";
import { appendWorkerEvent } from "../../../engine/workers/events.js";
import { workerGuardrails } from "../../../engine/workers/guardrails.js";
import { recordTouches, type RawTouch } from "../../../engine/workers/touches.js";
import { planGateState } from "../../../engine/workers/kind-integrity.js";
import { PLAN_GATE_REFUSAL } from "../../../domain/plans/plan-gate.js";
import { registerWorkerTools } from "./tools.js";

export const INBOX_POLL_MS = 300;
/** pi's file tools and what a call of each says about its path. */
const TOUCHING_TOOLS: Record<string, RawTouch["how"]> = { read: "read", edit: "edit", write: "edit" };
/** pi's tools that change files: refused while the worker's plan gate is armed. */
const GATED_TOOLS = new Set(["edit", "write"]);

/** With no initial prompt, inbox delivery starts this long after the session started. */
const FIRST_DELIVERY_GRACE_MS = 3_000;

interface Pending {
  text: string;
  ids: string[];
}

/** The custom message type a broadcast arrives as: context for the worker's next turn, never a turn of its own. */
export const BROADCAST_MESSAGE_TYPE = "docket-broadcast";

function userText(message: unknown): string | undefined {
  const m = message as { role?: string; content?: unknown; customType?: string };
  if (m?.role !== "user" && !(m?.role === "custom" && m.customType === BROADCAST_MESSAGE_TYPE)) return undefined;
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content)) return undefined;
  return (m.content as { type?: string; text?: string }[])
    .filter((b) => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}

export function registerWorkerRole(pi: ExtensionAPI, env: NodeJS.ProcessEnv): void {
  const who: WorkerIdentity = parseWorkerIdentity(env);
  let opened: EngineContext | undefined;
  const engine = (): EngineContext => (opened ??= openEngine({ env, cwd: process.cwd() }));
  registerWorkerTools(pi, { engine, identity: who });

  let session: ExtensionContext | undefined;
  let fencedOut = false;
  let deliveryOpen = false;
  let protocolCalled = false;
  let lastVersion = -1;
  let guardrails: string | undefined;
  const pending: Pending[] = [];
  const timers: NodeJS.Timeout[] = [];
  /** Paths its read/edit/write tools were given since the last flush (recorded with the next heartbeat or turn end). */
  let touches: RawTouch[] = [];

  function flushTouches(): void {
    if (touches.length === 0) return;
    const batch = touches;
    touches = [];
    guarded("touches", () => recordTouches(engine(), who, batch));
  }

  /** Runs one engine call; a fence refusal stops this (replaced) process's loops, anything else is logged. */
  function guarded<T>(what: string, fn: () => T): T | undefined {
    if (fencedOut) return undefined;
    try {
      return fn();
    } catch (error) {
      if (isDocketError(error) && error.category === "fenced") {
        fencedOut = true;
        stop();
      }
      try {
        appendWorkerEvent(engine(), who.worker, { type: "error", during: what, message: (error as Error).message, generation: who.generation });
      } catch {
        // The events file is the last place to record this; if it cannot be written the error is lost by design.
      }
      return undefined;
    }
  }

  function stop(): void {
    for (const t of timers.splice(0)) clearInterval(t);
  }

  function heartbeat(): void {
    const model = session?.model ? `${session.model.provider}/${session.model.id}` : null;
    guarded("heartbeat", () => recordHeartbeat(engine(), who, { model, thinking: pi.getThinkingLevel(), pid: process.pid }));
    flushTouches();
  }

  function deliver(): void {
    // Docket launches workers interactive; a print/json run (tests, scripts) has no one to steer, so it takes nothing.
    if (!session || !session.hasUI || !deliveryOpen || fencedOut) return;
    const eng = engine();
    const version = ledgerVersion(eng);
    if (version === lastVersion) return;
    lastVersion = version;
    if (!inboxHasQueued(eng, who.worker)) return;
    const claimed = guarded("inbox", () => claimInbox(eng, who)) ?? [];
    if (claimed.length === 0) return;
    const messages = claimed.filter((m) => m.deliverAs !== "nextTurn");
    const quiet = claimed.filter((m) => m.deliverAs === "nextTurn");
    if (messages.length > 0) {
      const text = messages.map(formatInboxMessage).join("\n\n");
      const ids = messages.map((m) => m.id);
      pending.push({ text, ids });
      const deliverAs = messages.every((m) => m.deliverAs === "followUp") ? "followUp" : "steer";
      if (session.isIdle()) pi.sendUserMessage(text);
      else pi.sendUserMessage(text, { deliverAs });
      guarded("event", () => appendWorkerEvent(eng, who.worker, { type: "message", direction: "in", ids, deliverAs, generation: who.generation }));
    }
    if (quiet.length > 0) {
      // A broadcast never starts or interrupts a turn: the model reads it at its next call (steer, once the running
      // tools finish) or, when idle, with the next prompt that wakes it (nextTurn).
      const text = quiet.map(formatInboxMessage).join("\n\n");
      const ids = quiet.map((m) => m.id);
      pending.push({ text, ids });
      const deliverAs = session.isIdle() ? "nextTurn" : "steer";
      pi.sendMessage({ customType: BROADCAST_MESSAGE_TYPE, content: text, display: true, details: { ids } }, { deliverAs });
      guarded("event", () => appendWorkerEvent(eng, who.worker, { type: "message", direction: "in", ids, deliverAs, generation: who.generation }));
    }
  }

  function observeUser(message: unknown): void {
    const text = userText(message);
    if (text === undefined) return;
    const hit = pending.findIndex((p) => text.includes(p.text));
    if (hit === -1) return;
    const [seen] = pending.splice(hit, 1);
    guarded("inbox-read", () => markInboxRead(engine(), who, seen!.ids));
  }

  pi.on("session_start", (_event, ctx) => {
    session = ctx;
    if (timers.length > 0) return; // session_start can arrive twice; one set of loops is enough
    heartbeat();
    const beat = setInterval(heartbeat, HEARTBEAT_INTERVAL_MS);
    const poll = setInterval(() => guarded("poll", deliver), INBOX_POLL_MS);
    const grace = setTimeout(() => (deliveryOpen = true), FIRST_DELIVERY_GRACE_MS);
    for (const t of [beat, poll, grace]) t.unref();
    timers.push(beat, poll, grace);
  });

  pi.on("before_agent_start", (event) => {
    guardrails ??= guarded("guardrails", () => workerGuardrails(engine(), who.worker));
    return guardrails ? { systemPrompt: `${event.systemPrompt}\n\n${guardrails}` } : undefined;
  });

  pi.on("agent_start", () => {
    protocolCalled = false;
    deliveryOpen = true;
    guarded("turn", () => recordTurn(engine(), who, "start"));
  });

  pi.on("agent_end", () => {
    flushTouches();
    if (!protocolCalled) guarded("turn", () => recordTurn(engine(), who, "end"));
  });

  // The plan gate, enforced: until the human discharges it, edit/write are refused (fail closed if the ledger cannot tell).
  let gateOpen = false;
  pi.on("tool_call", (event) => {
    if (gateOpen || !GATED_TOOLS.has(event.toolName)) return undefined;
    const state = guarded("gate", () => planGateState(engine(), who.worker));
    if (state === "none" || state === "discharged") {
      gateOpen = true;
      return undefined;
    }
    return { block: true, reason: PLAN_GATE_REFUSAL };
  });

  pi.on("message_start", (event) => observeUser(event.message));
  pi.on("message_end", (event) => observeUser(event.message));

  pi.on("tool_execution_start", (event) => {
    const path = (event.args as { path?: unknown } | undefined)?.path;
    if (typeof path === "string" && TOUCHING_TOOLS[event.toolName]) touches.push({ path, how: TOUCHING_TOOLS[event.toolName]! });
    guarded("event", () => appendWorkerEvent(engine(), who.worker, { type: "tool_start", tool: event.toolName, callId: event.toolCallId, generation: who.generation }));
  });

  pi.on("tool_execution_end", (event) => {
    // A note changes no state: a turn that only left a note still ends idle.
    if (event.toolName.startsWith("docket_") && event.toolName !== "docket_note" && !event.isError) protocolCalled = true;
    guarded("event", () =>
      appendWorkerEvent(engine(), who.worker, { type: "tool_end", tool: event.toolName, callId: event.toolCallId, isError: event.isError, generation: who.generation }),
    );
  });

  pi.on("session_shutdown", () => {
    stop();
    opened?.close();
    opened = undefined;
  });
}
