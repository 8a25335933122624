// The worker role of the pi extension: guardrails in the system prompt, heartbeats, activity events, the plan gate
// and inbox delivery (inbox-delivery.ts) — every one a call through the worker's door (worker-calls.ts).

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { HEARTBEAT_INTERVAL_MS } from "../../../domain/workers/lifecycle.js";
import { doorOf } from "../../shared/door-client.js";
import { PLAN_GATE_REFUSAL } from "../../../domain/plans/plan-gate.js";
import { inboxDelivery } from "./inbox-delivery.js";
import { registerWorkerTools } from "./tools.js";
import { workerCalls, type WorkerCalls } from "./worker-calls.js";

export { BROADCAST_MESSAGE_TYPE } from "./inbox-delivery.js";

/** pi's file tools and what a call of each says about its path. */
const TOUCHING_TOOLS: Record<string, "read" | "edit"> = { read: "read", edit: "edit", write: "edit" };
/** pi's tools that change files: refused while the worker's plan gate is armed. */
const GATED_TOOLS = new Set(["edit", "write"]);
/** With no initial prompt, inbox delivery starts this long after the session started. */
const FIRST_DELIVERY_GRACE_MS = 3_000;

export function registerWorkerRole(pi: ExtensionAPI, env: NodeJS.ProcessEnv): void {
  const timers: NodeJS.Timeout[] = [];
  let ended = false;
  const stop = (): void => {
    ended = true;
    for (const t of timers.splice(0)) clearInterval(t);
  };
  const door = doorOf(env);
  const calls = workerCalls(door, stop);
  const { guarded } = calls;
  registerWorkerTools(pi, door, calls.inOrder);

  let session: ExtensionContext | undefined;
  const inbox = inboxDelivery(pi, calls, () => session);
  const touches = trackTouches(guarded);
  const turn = { protocolCalled: false };
  let guardrails: string | undefined;

  function heartbeat(): void {
    const model = session?.model ? `${session.model.provider}/${session.model.id}` : null;
    void guarded("heartbeat", "heartbeat", { model, thinking: pi.getThinkingLevel(), pid: process.pid });
    void touches.flush();
  }

  pi.on("session_start", (_event, ctx) => {
    session = ctx;
    if (timers.length > 0) return; // session_start can arrive twice; one set of loops is enough
    heartbeat();
    const beat = setInterval(heartbeat, HEARTBEAT_INTERVAL_MS);
    const grace = setTimeout(() => inbox.open(), FIRST_DELIVERY_GRACE_MS);
    for (const t of [beat, grace]) t.unref();
    timers.push(beat, grace);
    if (ctx.hasUI) void inbox.loop(() => ended);
  });

  pi.on("before_agent_start", async (ev) => {
    guardrails ??= (await guarded<{ text: string }>("guardrails", "guardrails", {}))?.text;
    return guardrails ? { systemPrompt: `${ev.systemPrompt}\n\n${guardrails}` } : undefined;
  });

  // Never awaited here: pi runs a turn's handlers in turn, and a handler waiting on the door would hold back the
  // message_end that carries docket_done's body. The queue keeps these calls in order all the same.
  pi.on("agent_start", () => {
    turn.protocolCalled = false;
    inbox.open();
    void guarded("turn", "turn", { event: "start" });
  });

  pi.on("agent_end", () => {
    void touches.flush();
    if (!turn.protocolCalled) void guarded("turn", "turn", { event: "end" });
  });

  registerPlanGate(pi, guarded);
  pi.on("message_start", (ev) => inbox.observe(ev.message));
  pi.on("message_end", (ev) => inbox.observe(ev.message));
  registerToolActivity(pi, calls, touches, turn);
  pi.on("session_shutdown", () => stop());
}

interface Touches {
  record(path: string, how: "read" | "edit"): void;
  /** Sends the paths recorded since the last flush (with the next heartbeat or turn end). */
  flush(): Promise<unknown>;
}

/** Paths its read/edit/write tools were given, batched into one door call. */
function trackTouches(guarded: WorkerCalls["guarded"]): Touches {
  let touches: { path: string; how: "read" | "edit" }[] = [];
  return {
    record: (path, how) => void touches.push({ path, how }),
    flush() {
      if (touches.length === 0) return Promise.resolve();
      const batch = touches;
      touches = [];
      return guarded("touches", "touches", { touches: batch });
    },
  };
}

/** The plan gate, enforced: until the human discharges it, edit/write are refused (fail closed if the door cannot
 * tell). */
function registerPlanGate(pi: ExtensionAPI, guarded: WorkerCalls["guarded"]): void {
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
}

/** Each tool's start and end as activity events; file paths into the touches; a protocol call ends the turn's need
 * to report it. */
function registerToolActivity(
  pi: ExtensionAPI,
  { event }: WorkerCalls,
  touches: Touches,
  turn: { protocolCalled: boolean },
): void {
  pi.on("tool_execution_start", (ev) => {
    const path = (ev.args as { path?: unknown } | undefined)?.path;
    const how = TOUCHING_TOOLS[ev.toolName];
    if (typeof path === "string" && how) touches.record(path, how);
    event({ type: "tool_start", tool: ev.toolName, callId: ev.toolCallId });
  });
  pi.on("tool_execution_end", (ev) => {
    // A note changes no state: a turn that only left a note still ends idle.
    if (ev.toolName.startsWith("docket_") && ev.toolName !== "docket_note" && !ev.isError) turn.protocolCalled = true;
    event({ type: "tool_end", tool: ev.toolName, callId: ev.toolCallId, isError: ev.isError });
  });
}
