// The one pure spawn-policy resolver: kind, model, thinking, context and workspace, chosen once (ADR-0004).
// The same resolved object feeds validation, confirmation, persistence and launch; respawn never re-resolves.

import { validationError } from "../errors.js";
import { isMcpAgent, type McpAgent, type WorkerAgent } from "./agents.js";
import { normalizeKindName, THINKING_LEVELS, type WorkerKind } from "./kinds.js";
import { formatSpawnSummary } from "./spawn-summary.js";

export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export { WORKER_AGENTS, isMcpAgent, isWorkerAgent, type WorkerAgent } from "./agents.js";

/** Where each resolved setting came from, as `docket spawn` prints it (the `…Source` fields of a resolution). */
export type KindSource = "handoff choice" | "--as" | "config worker.defaultKind" | "built-in default" | `default (${string} kind)`;
export type ModelSource = "not used by command agents" | "handoff choice" | "--model" | `${McpAgent}'s own default` | `legacy kind model (${string})` | "parent model";
export type ThinkingSource =
  | "not used by command agents" | `not set by Docket for ${McpAgent}` | "handoff choice" | "--thinking" | `legacy kind thinking (${string})`
  | "default (the parent has no thinking level)" | "parent thinking";
type SeedSource = "--seed" | "config worker.parentSeedPolicy" | `legacy kind parent_seed (${string})`;
export type ContextSource =
  | "handoff (always fresh)" | "--fresh" | "default" | SeedSource | `${SeedSource}, not applicable to ${Exclude<WorkerAgent, "pi">} agents` | `${SeedSource}, no parent session file`;
export type WorkspaceSource = "--worktree" | `legacy kind default_worktree (${string})` | "read-only kind" | "writable kind";

export interface SpawnPolicyInput {
  agent: WorkerAgent;
  kindFlag?: string;
  modelFlag?: string;
  thinkingFlag?: string;
  seedFile?: string;
  fresh?: boolean;
  worktree?: boolean;
  handoff?: boolean;
  interactive: boolean;
  yes: boolean;
  /** What waived the confirmation when `yes` is set without the flag (`--scripted`): named as it, not as `--yes`. */
  yesFrom?: string;
  config: { defaultKind?: string; parentSeedPolicy?: "fresh" | "full" };
  kinds: Map<string, WorkerKind>;
  parent: { model?: string; thinking?: string; sessionFile?: string };
  availableModels: { ref: string; reasoning: boolean }[];
}

export interface ResolvedExecution {
  agent: WorkerAgent;
  kind: string;
  kindSource: KindSource;
  model: string | null;
  modelSource: ModelSource;
  thinking: string;
  thinkingSource: ThinkingSource;
  context: "fresh" | "seeded";
  contextSource: ContextSource;
  seedFile?: string;
  workspace: "isolated" | "shared";
  workspaceSource: WorkspaceSource;
  readOnly: boolean;
  planGate: boolean;
  legacyContributions: string[];
  warnings: string[];
  confirm: { needed: boolean; reasons: string[] };
  summary: string[];
}

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

/** Resolves one launch. Throws a DocketError with code `spawn-policy` on every abort rule; nothing else throws. */
export function resolveSpawnPolicy(input: SpawnPolicyInput): ResolvedExecution {
  const warnings: string[] = [];
  const legacy: string[] = [];
  const { kind, kindSource } = resolveKind(input, warnings);
  warnings.push(...kind.warnings.map((w) => `kind ${kind.name}: ${w}`));
  const settings = resolveAgentSettings(input, kind, warnings, legacy);
  const { context, contextSource, seedFile } = resolveContext(input, kind, warnings, legacy);
  const { workspace, workspaceSource } = resolveWorkspace(input, kind, legacy);
  const reasons = confirmReasons(input, settings, legacy);
  const { model, modelSource, thinking, thinkingSource, thinkingNote } = settings;
  const summary = formatSpawnSummary({
    agent: input.agent, kind, model, modelSource, thinking, thinkingSource,
    ...(thinkingNote !== undefined ? { thinkingNote } : {}),
    context, contextSource, ...(seedFile !== undefined ? { seedFile } : {}), workspace, workspaceSource,
    legacyContributions: legacy, confirmReasons: reasons,
    interactive: input.interactive, yes: input.yes, ...(input.yesFrom !== undefined ? { yesFrom: input.yesFrom } : {}),
  });
  return {
    agent: input.agent,
    kind: kind.name,
    kindSource,
    model,
    modelSource,
    thinking,
    thinkingSource,
    context,
    contextSource,
    ...(seedFile !== undefined ? { seedFile } : {}),
    workspace,
    workspaceSource,
    readOnly: kind.readOnly,
    planGate: kind.planGate,
    legacyContributions: legacy,
    warnings,
    confirm: { needed: reasons.length > 0, reasons },
    summary,
  };
}

/** The model and thinking level one agent runs with, and a note when an inherited level was adjusted. */
interface AgentSettings {
  model: string | null;
  modelSource: ModelSource;
  thinking: string;
  thinkingSource: ThinkingSource;
  thinkingNote?: string;
}

function resolveAgentSettings(
  input: SpawnPolicyInput,
  kind: WorkerKind,
  warnings: string[],
  legacy: string[],
): AgentSettings {
  if (input.agent === "command") {
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
    // ADR-0004: a model ref matches exactly; one with spaces around it is refused, never trimmed into another.
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
    "No worker model resolved: the parent has no model and none was chosen",
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
    return { thinking: "off", thinkingSource: "default (the parent has no thinking level)", explicit: false };
  }
  if (isThinkingLevel(inherited)) return { thinking: inherited, thinkingSource: "parent thinking", explicit: false };
  warnings.push(
    `parent thinking level ${JSON.stringify(inherited)} is not one of ${THINKING_LEVELS.join(", ")}; using off`,
  );
  const thinkingNote = `inherited ${inherited} is not a level Docket knows; resolved to off`;
  return { thinking: "off", thinkingSource: "parent thinking", explicit: false, thinkingNote };
}

function resolveWorkspace(
  input: SpawnPolicyInput,
  kind: WorkerKind,
  legacy: string[],
): { workspace: "isolated" | "shared"; workspaceSource: WorkspaceSource } {
  if (input.worktree) return { workspace: "isolated", workspaceSource: "--worktree" };
  if (kind.legacy.defaultWorktree !== undefined) {
    legacy.push("default_worktree");
    const workspace = kind.legacy.defaultWorktree ? "isolated" : "shared";
    return { workspace, workspaceSource: `legacy kind default_worktree (${kind.name})` };
  }
  if (kind.readOnly) return { workspace: "shared", workspaceSource: "read-only kind" };
  return { workspace: "isolated", workspaceSource: "writable kind" };
}

/** Why the human should confirm this launch: a pi worker that differs from its parent, legacy defaults, a handoff. */
function confirmReasons(input: SpawnPolicyInput, settings: AgentSettings, legacy: string[]): string[] {
  const reasons: string[] = [];
  if (input.agent === "pi") {
    const { model, thinking } = settings;
    if (model !== (input.parent.model ?? null)) {
      reasons.push(`model ${model} differs from the parent's ${input.parent.model ?? "(none)"}`);
    }
    const parentThinking = input.parent.thinking?.trim().toLowerCase() || "off";
    if (thinking !== parentThinking) reasons.push(`thinking ${thinking} differs from the parent's ${parentThinking}`);
  }
  if (legacy.length > 0) reasons.push(`deprecated kind defaults contributed: ${legacy.join(", ")}`);
  if (input.handoff) reasons.push("reviewed handoff worker");
  return reasons;
}

function resolveKind(input: SpawnPolicyInput, warnings: string[]): { kind: WorkerKind; kindSource: KindSource } {
  const known = () => [...input.kinds.keys()].sort().join(", ");
  if (input.kindFlag !== undefined) {
    const name = normalizeKindName(input.kindFlag);
    const kind = name === undefined ? undefined : input.kinds.get(name);
    if (!kind) throw abort(`unknown kind ${JSON.stringify(input.kindFlag)}; known kinds: ${known()}`, "run `docket kinds` to see what each one may do");
    return { kind, kindSource: input.handoff ? "handoff choice" : "--as" };
  }
  if (input.config.defaultKind !== undefined) {
    const name = normalizeKindName(input.config.defaultKind);
    const kind = name === undefined ? undefined : input.kinds.get(name);
    if (kind) return { kind, kindSource: "config worker.defaultKind" };
    warnings.push(`config worker.defaultKind ${JSON.stringify(input.config.defaultKind)} is not a known kind (known: ${known()}); using default`);
  }
  const fallback = input.kinds.get("default");
  if (!fallback) throw abort(`no default kind is registered; known kinds: ${known()}`, "pass --as <kind>");
  return { kind: fallback, kindSource: fallback.source === "builtin" ? "built-in default" : `default (${fallback.source} kind)` };
}

function findModel(ref: string, source: string, available: SpawnPolicyInput["availableModels"]): { ref: string; reasoning: boolean } {
  if (!splitModelRef(ref)) throw abort(`model ${JSON.stringify(ref)} (${source}) is not a provider/model reference`, "write it as provider/model, for example anthropic/claude-sonnet-4");
  const entry = available.find((m) => m.ref === ref);
  if (entry) return entry;
  const listed = available.slice(0, 12).map((m) => m.ref).join(", ");
  const more = available.length > 12 ? ` and ${available.length - 12} more` : "";
  throw abort(
    `model ${ref} (${source}) is not an available pi model; available: ${available.length === 0 ? "none" : listed + more}`,
    "run pi --list-models to see them",
  );
}

function resolveContext(
  input: SpawnPolicyInput,
  kind: WorkerKind,
  warnings: string[],
  legacy: string[],
): { context: "fresh" | "seeded"; contextSource: ContextSource; seedFile?: string } {
  const seedRequested = input.seedFile !== undefined;
  if (input.handoff) {
    if (seedRequested) warnings.push("--seed ignored: a handoff worker always starts fresh");
    return { context: "fresh", contextSource: "handoff (always fresh)" };
  }
  if (input.fresh) {
    if (seedRequested) warnings.push("--seed ignored because --fresh was given");
    return { context: "fresh", contextSource: "--fresh" };
  }
  let file: string | undefined;
  let source: SeedSource;
  if (seedRequested) [file, source] = [input.seedFile?.trim() || input.parent.sessionFile, "--seed"];
  else if (input.config.parentSeedPolicy !== undefined) {
    if (input.config.parentSeedPolicy === "fresh") return { context: "fresh", contextSource: "config worker.parentSeedPolicy" };
    [file, source] = [input.parent.sessionFile, "config worker.parentSeedPolicy"];
  } else if (kind.legacy.parentSeed !== undefined) {
    legacy.push("parent_seed");
    if (kind.legacy.parentSeed === "fresh") return { context: "fresh", contextSource: `legacy kind parent_seed (${kind.name})` };
    [file, source] = [input.parent.sessionFile, `legacy kind parent_seed (${kind.name})`];
  } else return { context: "fresh", contextSource: "default" };
  if (input.agent !== "pi") {
    warnings.push(`seeding requested by ${source} but ${input.agent} agents cannot be seeded; starting fresh`);
    return { context: "fresh", contextSource: `${source}, not applicable to ${input.agent} agents` };
  }
  if (!file) {
    warnings.push(`seeding requested by ${source} but there is no parent session file; starting fresh`);
    return { context: "fresh", contextSource: `${source}, no parent session file` };
  }
  return { context: "seeded", contextSource: source, seedFile: file };
}
