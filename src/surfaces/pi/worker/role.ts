// The worker role of the pi extension: guardrails in the system prompt, heartbeats, activity events, inbox delivery —
// every one a call through the worker's door. Delivery is pushed: the door's long-poll answers when a message is queued.
// Delivery is observed, never assumed: claimed → delivered, and read only when pi is seen starting that user message.

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { DoorCall } from "../../../domain/door.js";
import { isDocketError } from "../../../domain/errors.js";
import { HEARTBEAT_INTERVAL_MS } from "../../../domain/workers/lifecycle.js";
import { callDoor, doorOf, freshCallId, type Door } from "../../shared/door-client.js";
import { PLAN_GATE_REFUSAL } from "../../../domain/plans/plan-gate.js";
import { registerWorkerTools } from "./tools.js";

/** pi's file tools and what a call of each says about its path. */
const TOUCHING_TOOLS: Record<string, "read" | "edit"> = { read: "read", edit: "edit", write: "edit" };
/** pi's tools that change files: refused while the worker's plan gate is armed. */
const GATED_TOOLS = new Set(["edit", "write"]);
/** With no initial prompt, inbox delivery starts this long after the session started. */
const FIRST_DELIVERY_GRACE_MS = 3_000;
/** How long one inbox long-poll may wait at the door before it is asked again. */
const INBOX_WAIT_MS = 20_000;

interface Pending {
  text: string;
  ids: string[];
}

interface Claimed {
  id: string;
  deliverAs: "steer" | "followUp" | "nextTurn";
  text: string;
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
  const door: Door = doorOf(env);
  // The worker's calls reach the door in the order pi made them (a turn's start before its docket_done, a tool's start
  // before its end): each waits for the one before it. Only the inbox long-poll and the heartbeat run beside them.
  let order: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = order.then(fn, fn);
    order = next.catch(() => undefined);
    return next;
  };
  registerWorkerTools(pi, door, inOrder);

  let session: ExtensionContext | undefined;
  let fencedOut = false;
  let ended = false;
  let deliveryOpen = false;
  let delivering = false;
  let protocolCalled = false;
  let guardrails: string | undefined;
  const pending: Pending[] = [];
  const timers: NodeJS.Timeout[] = [];
  /** Paths its read/edit/write tools were given since the last flush (recorded with the next heartbeat or turn end). */
  let touches: { path: string; how: "read" | "edit" }[] = [];

  /** One door call; a fence refusal stops this (replaced) process's loops, anything else is logged as an event. */
  async function guarded<T>(what: string, call: DoorCall, args: object, options: { waitMs?: number } = {}): Promise<T | undefined> {
    if (fencedOut) return undefined;
    try {
      const send = () => callDoor<T>(door, call, args, options);
      return await (call === "inbox-wait" || call === "heartbeat" ? send() : inOrder(send));
    } catch (error) {
      if (isDocketError(error) && error.category === "fenced") {
        fencedOut = true;
        stop();
      }
      // The events file is the last place to record this; if the door cannot take it, the error is lost by design.
      await callDoor(door, "event", { event: { type: "error", during: what, message: (error as Error).message } }).catch(() => undefined);
      return undefined;
    }
  }

  const event = (e: Record<string, unknown>) => void guarded("event", "event", { event: e });

  function flushTouches(): Promise<unknown> {
    if (touches.length === 0) return Promise.resolve();
    const batch = touches;
    touches = [];
    return guarded("touches", "touches", { touches: batch });
  }

  function stop(): void {
    ended = true;
    for (const t of timers.splice(0)) clearInterval(t);
  }

  function heartbeat(): void {
    const model = session?.model ? `${session.model.provider}/${session.model.id}` : null;
    void guarded("heartbeat", "heartbeat", { model, thinking: pi.getThinkingLevel(), pid: process.pid });
    void flushTouches();
  }

  async function deliver(): Promise<void> {
    // Docket launches workers interactive; a print/json run (tests, scripts) has no one to steer, so it takes nothing.
    if (!session || !session.hasUI || !deliveryOpen || fencedOut || delivering) return;
    delivering = true;
    try {
      const claimed = (await guarded<{ messages: Claimed[] }>("inbox", "inbox-claim", { key: freshCallId("claim") }))?.messages ?? [];
      if (claimed.length === 0 || !session) return;
      const messages = claimed.filter((m) => m.deliverAs !== "nextTurn");
      const quiet = claimed.filter((m) => m.deliverAs === "nextTurn");
      if (messages.length > 0) {
        const text = messages.map((m) => m.text).join("\n\n");
        const ids = messages.map((m) => m.id);
        pending.push({ text, ids });
        const deliverAs = messages.every((m) => m.deliverAs === "followUp") ? "followUp" : "steer";
        if (session.isIdle()) pi.sendUserMessage(text);
        else pi.sendUserMessage(text, { deliverAs });
        event({ type: "message", direction: "in", ids, deliverAs });
      }
      if (quiet.length > 0) {
        // A broadcast never starts or interrupts a turn: the model reads it at its next call (steer, once the running
        // tools finish) or, when idle, with the next prompt that wakes it (nextTurn).
        const text = quiet.map((m) => m.text).join("\n\n");
        const ids = quiet.map((m) => m.id);
        pending.push({ text, ids });
        const deliverAs = session.isIdle() ? "nextTurn" : "steer";
        pi.sendMessage({ customType: BROADCAST_MESSAGE_TYPE, content: text, display: true, details: { ids } }, { deliverAs });
        event({ type: "message", direction: "in", ids, deliverAs });
      }
    } finally {
      delivering = false;
    }
  }

  /** The inbox, pushed: the door answers this long-poll when a message is queued (or after INBOX_WAIT_MS). */
  async function inboxLoop(): Promise<void> {
    let after = -1;
    while (!ended && !fencedOut) {
      const seen = await guarded<{ version: number; queued: boolean }>("inbox", "inbox-wait", { after, timeoutMs: INBOX_WAIT_MS }, { waitMs: INBOX_WAIT_MS });
      if (!seen) {
        await new Promise((r) => setTimeout(r, 1_000).unref());
        continue;
      }
      after = seen.version;
      if (seen.queued) await deliver();
    }
  }

  function observeUser(message: unknown): void {
    const text = userText(message);
    if (text === undefined) return;
    const hit = pending.findIndex((p) => text.includes(p.text));
    if (hit === -1) return;
    const [seen] = pending.splice(hit, 1);
    void guarded("inbox-read", "inbox-read", { ids: seen!.ids });
  }

  function openDelivery(): void {
    if (deliveryOpen) return;
    deliveryOpen = true;
    void deliver(); // what was queued while delivery was closed
  }

  pi.on("session_start", (_event, ctx) => {
    session = ctx;
    if (timers.length > 0) return; // session_start can arrive twice; one set of loops is enough
    heartbeat();
    const beat = setInterval(heartbeat, HEARTBEAT_INTERVAL_MS);
    const grace = setTimeout(openDelivery, FIRST_DELIVERY_GRACE_MS);
    for (const t of [beat, grace]) t.unref();
    timers.push(beat, grace);
    if (ctx.hasUI) void inboxLoop();
  });

  pi.on("before_agent_start", async (ev) => {
    guardrails ??= (await guarded<{ text: string }>("guardrails", "guardrails", {}))?.text;
    return guardrails ? { systemPrompt: `${ev.systemPrompt}\n\n${guardrails}` } : undefined;
  });

  // Never awaited here: pi runs a turn's handlers in turn, and a handler waiting on the door would hold back the
  // message_end that carries docket_done's body. The queue keeps these calls in order all the same.
  pi.on("agent_start", () => {
    protocolCalled = false;
    openDelivery();
    void guarded("turn", "turn", { event: "start" });
  });

  pi.on("agent_end", () => {
    void flushTouches();
    if (!protocolCalled) void guarded("turn", "turn", { event: "end" });
  });

  // The plan gate, enforced: until the human discharges it, edit/write are refused (fail closed if the door cannot tell).
  let gateOpen = false;
  pi.on("tool_call", async (event) => {
    if (gateOpen || !GATED_TOOLS.has(event.toolName)) return undefined;
    const state = (await guarded<{ state: string }>("gate", "gate", {}))?.state;
    if (state === "none" || state === "discharged") {
      gateOpen = true;
      return undefined;
    }
    return { block: true, reason: PLAN_GATE_REFUSAL };
  });

  pi.on("message_start", (ev) => observeUser(ev.message));
  pi.on("message_end", (ev) => observeUser(ev.message));

  pi.on("tool_execution_start", (ev) => {
    const path = (ev.args as { path?: unknown } | undefined)?.path;
    if (typeof path === "string" && TOUCHING_TOOLS[ev.toolName]) touches.push({ path, how: TOUCHING_TOOLS[ev.toolName]! });
    event({ type: "tool_start", tool: ev.toolName, callId: ev.toolCallId });
  });

  pi.on("tool_execution_end", (ev) => {
    // A note changes no state: a turn that only left a note still ends idle.
    if (ev.toolName.startsWith("docket_") && ev.toolName !== "docket_note" && !ev.isError) protocolCalled = true;
    event({ type: "tool_end", tool: ev.toolName, callId: ev.toolCallId, isError: ev.isError });
  });

  pi.on("session_shutdown", () => stop());
}
