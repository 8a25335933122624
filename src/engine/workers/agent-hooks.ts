// What an agent's own hooks tell Docket: Claude Code's UserPromptSubmit/Stop, Codex's notify after each turn.
// Turn boundaries move active ⇄ idle; the input the agent reports is how a pasted message becomes read.

import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { EngineContext } from "../context.js";
import { observeAgentInput } from "../talk/agent-inbox.js";
import { recordTurn } from "./lifecycle.js";
import { agentConfigDir } from "./agents.js";

export const AGENT_HOOK_EVENTS = ["prompt", "stop", "notify"] as const;
export type AgentHookEvent = (typeof AGENT_HOOK_EVENTS)[number];

export interface AgentHookResult {
  event: AgentHookEvent;
  /** Messages this input showed the agent read. */
  read: string[];
  /** Ignored: not the worker's own conversation (a side thread) or not a turn event. */
  ignored?: string;
}

const field = (payload: unknown, name: string): unknown =>
  typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>)[name] : undefined;
const texts = (value: unknown): string[] =>
  typeof value === "string"
    ? [value]
    : Array.isArray(value)
      ? value.filter((v): v is string => typeof v === "string")
      : [];

export function recordAgentHook(
  ctx: EngineContext,
  who: WorkerIdentity,
  event: AgentHookEvent,
  payload: unknown,
): AgentHookResult {
  if (event === "prompt") {
    recordTurn(ctx, who, "start");
    return { event, read: observeAgentInput(ctx, who, texts(field(payload, "prompt"))) };
  }
  if (event === "stop") {
    recordTurn(ctx, who, "end");
    return { event, read: [] };
  }
  if (field(payload, "type") !== "agent-turn-complete") return { event, read: [], ignored: "not a turn notification" };
  const thread = field(payload, "thread-id");
  // The worker's CODEX_HOME as Docket made it (the door runs this, not the worker: its environment is not ours to read).
  const home = agentConfigDir(ctx.home.workerDir(who.worker), "codex");
  if (typeof thread !== "string" || !ctx.agents.isCodexMainThread(home, thread))
    return { event, read: [], ignored: "a side thread" };
  const read = observeAgentInput(ctx, who, texts(field(payload, "input-messages")));
  recordTurn(ctx, who, "end");
  return { event, read };
}
