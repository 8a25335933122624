// The model and thinking level a worker's agent runs with: pi's resolved from flags, legacy kind defaults and the
// parent, checked against pi's model listing; Claude Code's and Codex's passed through; a command agent's none.

import { validationError } from "../errors.js";
import { AGENT_TRAITS, isMcpAgent, type McpAgent } from "../agents/traits.js";
import { THINKING_LEVELS, type WorkerKind } from "./kinds.js";
import type { ModelSource, SpawnPolicyInput, ThinkingSource } from "./spawn-policy-types.js";

export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

const abort = (message: string, hint?: string) => validationError("spawn-policy", message, hint);

export function isThinkingLevel(value: string): value is ThinkingLevel {
  return (THINKING_LEVELS as readonly string[]).includes(value);
}

/** Splits a model ref at the FIRST slash, so model ids may themselves contain slashes. */
export function splitModelRef(ref: string): { provider: string; model: string } | undefined {
  const at = ref.indexOf("/");
  if (at <= 0 || at === ref.length - 1) return undefined;
  return { provider: ref.slice(0, at), model: ref.slice(at + 1) };
}

/** The model and thinking level one agent runs with, and a note when an inherited level was adjusted. */
export interface AgentSettings {
  model: string | null;
  modelSource: ModelSource;
  thinking: string;
  thinkingSource: ThinkingSource;
  thinkingNote?: string;
}

export function resolveAgentSettings(
  input: SpawnPolicyInput,
  kind: WorkerKind,
  warnings: string[],
  legacy: string[],
): AgentSettings {
  if (AGENT_TRAITS[input.agent].model === "none") {
    if (input.modelFlag !== undefined) {
      throw abort("--model does not apply to --agent command workers; drop --model or use the pi agent");
    }
    if (input.thinkingFlag !== undefined) {
      throw abort("--thinking does not apply to --agent command workers; drop --thinking or use the pi agent");
    }
    const none = "not used by command agents";
    return { model: null, modelSource: none, thinking: "off", thinkingSource: none };
  }
  if (isMcpAgent(input.agent)) return resolveMcpSettings(input, input.agent);
  return resolvePiSettings(input, kind, warnings, legacy);
}

function resolveMcpSettings(input: SpawnPolicyInput, agent: McpAgent): AgentSettings {
  if (input.thinkingFlag !== undefined) {
    throw abort(
      `--thinking does not apply to --agent ${agent} workers; choose the model's effort in that agent's own settings`,
    );
  }
  const thinkingSource: ThinkingSource = `not set by Docket for ${agent}`;
  // Passed through exactly as that CLI names models; the agent itself refuses a name it does not know.
  if (input.modelFlag !== undefined && input.modelFlag.trim() !== "") {
    const modelSource = input.handoff ? "handoff choice" : "--model";
    return { model: input.modelFlag.trim(), modelSource, thinking: "off", thinkingSource };
  }
  return { model: null, modelSource: `${agent}'s own default`, thinking: "off", thinkingSource };
}

function resolvePiSettings(
  input: SpawnPolicyInput,
  kind: WorkerKind,
  warnings: string[],
  legacy: string[],
): AgentSettings {
  const { model, modelSource } = resolvePiModel(input, kind, legacy);
  const entry = findModel(model, modelSource, input.availableModels);
  const { explicit, ...level } = resolvePiThinking(input, kind, warnings, legacy);
  if (entry.reasoning || level.thinking === "off") return { model, modelSource, ...level };
  if (explicit) {
    throw abort(
      `model ${model} does not support thinking, but ${level.thinkingSource} asks for ${level.thinking}; ` +
        "use --thinking off",
    );
  }
  const thinkingNote = `inherited ${level.thinking} resolved to off: ${model} has no reasoning`;
  return { model, modelSource, thinking: "off", thinkingSource: level.thinkingSource, thinkingNote };
}

function resolvePiModel(
  input: SpawnPolicyInput,
  kind: WorkerKind,
  legacy: string[],
): { model: string; modelSource: ModelSource } {
  const flag = input.modelFlag;
  if (flag !== undefined && flag !== flag.trim()) {
    // A model ref matches exactly (docs/decisions/spawn-policy.md); one with spaces around it is refused, never trimmed
    // into another.
    throw abort(
      `--model ${JSON.stringify(flag)} has spaces around it; a model ref must match exactly`,
      "give it as `pi --list-models` prints it, without spaces",
    );
  }
  if (flag !== undefined) return { model: flag, modelSource: input.handoff ? "handoff choice" : "--model" };
  if (kind.legacy.model) {
    legacy.push("model");
    return { model: kind.legacy.model, modelSource: `legacy kind model (${kind.name})` };
  }
  if (input.parent.model) return { model: input.parent.model, modelSource: "parent model" };
  throw abort(
    "No worker model resolved: your pi has no default model and none was chosen",
    "pass --model provider/model, or set a default model in pi's settings.json",
  );
}

/** The thinking level before the model's reasoning is checked; `explicit` when a flag or a kind chose it. */
function resolvePiThinking(
  input: SpawnPolicyInput,
  kind: WorkerKind,
  warnings: string[],
  legacy: string[],
): { thinking: string; thinkingSource: ThinkingSource; explicit: boolean; thinkingNote?: string } {
  if (input.thinkingFlag !== undefined) {
    const t = input.thinkingFlag.trim().toLowerCase();
    if (!isThinkingLevel(t)) {
      throw abort(`thinking level ${JSON.stringify(input.thinkingFlag)} is not one of ${THINKING_LEVELS.join(", ")}`);
    }
    return { thinking: t, thinkingSource: input.handoff ? "handoff choice" : "--thinking", explicit: true };
  }
  if (kind.legacy.thinking) {
    legacy.push("thinking");
    return { thinking: kind.legacy.thinking, thinkingSource: `legacy kind thinking (${kind.name})`, explicit: true };
  }
  const inherited = input.parent.thinking?.trim().toLowerCase();
  if (inherited === undefined || inherited === "") {
    return { thinking: "off", thinkingSource: "default (your pi has no thinking level)", explicit: false };
  }
  if (isThinkingLevel(inherited)) return { thinking: inherited, thinkingSource: "parent thinking", explicit: false };
  warnings.push(
    `parent thinking level ${JSON.stringify(inherited)} is not one of ${THINKING_LEVELS.join(", ")}; using off`,
  );
  const thinkingNote = `inherited ${inherited} is not a level Docket knows; resolved to off`;
  return { thinking: "off", thinkingSource: "parent thinking", explicit: false, thinkingNote };
}

function findModel(
  ref: string,
  source: string,
  available: SpawnPolicyInput["availableModels"],
): { ref: string; reasoning: boolean } {
  if (!splitModelRef(ref)) {
    throw abort(
      `model ${JSON.stringify(ref)} (${source}) is not a provider/model reference`,
      "write it as provider/model, for example anthropic/claude-sonnet-4",
    );
  }
  const entry = available.find((m) => m.ref === ref);
  if (entry) return entry;
  const listed = available
    .slice(0, 12)
    .map((m) => m.ref)
    .join(", ");
  const more = available.length > 12 ? ` and ${available.length - 12} more` : "";
  const choices = available.length === 0 ? "none" : listed + more;
  throw abort(
    `model ${ref} (${source}) is not an available pi model; available: ${choices}`,
    "run pi --list-models to see them",
  );
}
