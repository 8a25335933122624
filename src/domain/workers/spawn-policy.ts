// The one pure spawn-policy resolver: kind, model, thinking, context and workspace, chosen once (ADR-0004).
// The same resolved object feeds validation, confirmation, persistence and launch; respawn never re-resolves.

import { validationError } from "../errors.js";
import { kindAuthority, normalizeKindName, THINKING_LEVELS, type WorkerKind } from "./kinds.js";

export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** What runs in a worker's window: pi (native), Claude Code or Codex (through `docket mcp`), or any command. */
export const WORKER_AGENTS = ["pi", "claude", "codex", "command"] as const;
export type WorkerAgent = (typeof WORKER_AGENTS)[number];

export function isWorkerAgent(value: string): value is WorkerAgent {
  return (WORKER_AGENTS as readonly string[]).includes(value);
}

/** An agent Docket launches as its own interactive CLI wired to `docket mcp`. */
export function isMcpAgent(agent: string): agent is McpAgent {
  return agent === "claude" || agent === "codex";
}

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
type McpAgent = "claude" | "codex";

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
  const handoffLabel = input.handoff ? "handoff choice" : undefined;

  let model: string | null = null;
  let modelSource: ModelSource = "not used by command agents";
  let thinking: string = "off";
  let thinkingSource: ThinkingSource = "not used by command agents";
  let thinkingNote: string | undefined;
  if (input.agent === "command") {
    if (input.modelFlag !== undefined) throw abort("--model does not apply to --agent command workers; drop --model or use the pi agent");
    if (input.thinkingFlag !== undefined) throw abort("--thinking does not apply to --agent command workers; drop --thinking or use the pi agent");
  } else if (isMcpAgent(input.agent)) {
    if (input.thinkingFlag !== undefined) throw abort(`--thinking does not apply to --agent ${input.agent} workers; choose the model's effort in that agent's own settings`);
    // Passed through exactly as that CLI names models; the agent itself refuses a name it does not know.
    if (input.modelFlag !== undefined && input.modelFlag.trim() !== "") [model, modelSource] = [input.modelFlag.trim(), handoffLabel ?? "--model"];
    else modelSource = `${input.agent}'s own default`;
    thinkingSource = `not set by Docket for ${input.agent}`;
  } else {
    let explicitThinking = true;
    if (input.modelFlag !== undefined && input.modelFlag !== input.modelFlag.trim()) {
      // ADR-0004: a model ref matches exactly; one with spaces around it is refused, never trimmed into another.
      throw abort(`--model ${JSON.stringify(input.modelFlag)} has spaces around it; a model ref must match exactly`, "give it as `pi --list-models` prints it, without spaces");
    }
    if (input.modelFlag !== undefined) [model, modelSource] = [input.modelFlag, handoffLabel ?? "--model"];
    else if (kind.legacy.model) {
      [model, modelSource] = [kind.legacy.model, `legacy kind model (${kind.name})`];
      legacy.push("model");
    } else if (input.parent.model) [model, modelSource] = [input.parent.model, "parent model"];
    else {
      throw abort("No worker model resolved: the parent has no model and none was chosen", "pass --model provider/model, or set a default model in pi's settings.json");
    }
    const entry = findModel(model, modelSource, input.availableModels);

    if (input.thinkingFlag !== undefined) {
      const t = input.thinkingFlag.trim().toLowerCase();
      if (!isThinkingLevel(t)) throw abort(`thinking level ${JSON.stringify(input.thinkingFlag)} is not one of ${THINKING_LEVELS.join(", ")}`);
      [thinking, thinkingSource] = [t, handoffLabel ?? "--thinking"];
    } else if (kind.legacy.thinking) {
      [thinking, thinkingSource] = [kind.legacy.thinking, `legacy kind thinking (${kind.name})`];
      legacy.push("thinking");
    } else {
      explicitThinking = false;
      const inherited = input.parent.thinking?.trim().toLowerCase();
      if (inherited === undefined || inherited === "") [thinking, thinkingSource] = ["off", "default (the parent has no thinking level)"];
      else if (isThinkingLevel(inherited)) [thinking, thinkingSource] = [inherited, "parent thinking"];
      else {
        [thinking, thinkingSource] = ["off", "parent thinking"];
        thinkingNote = `inherited ${inherited} is not a level Docket knows; resolved to off`;
        warnings.push(`parent thinking level ${JSON.stringify(inherited)} is not one of ${THINKING_LEVELS.join(", ")}; using off`);
      }
    }
    if (!entry.reasoning && thinking !== "off") {
      if (explicitThinking) {
        throw abort(`model ${model} does not support thinking, but ${thinkingSource} asks for ${thinking}; use --thinking off`);
      }
      thinkingNote = `inherited ${thinking} resolved to off: ${model} has no reasoning`;
      thinking = "off";
    }
  }

  const { context, contextSource, seedFile } = resolveContext(input, kind, warnings, legacy);
  let workspace: "isolated" | "shared";
  let workspaceSource: WorkspaceSource;
  if (input.worktree) [workspace, workspaceSource] = ["isolated", "--worktree"];
  else if (kind.legacy.defaultWorktree !== undefined) {
    [workspace, workspaceSource] = [kind.legacy.defaultWorktree ? "isolated" : "shared", `legacy kind default_worktree (${kind.name})`];
    legacy.push("default_worktree");
  } else if (kind.readOnly) [workspace, workspaceSource] = ["shared", "read-only kind"];
  else [workspace, workspaceSource] = ["isolated", "writable kind"];

  const reasons: string[] = [];
  if (input.agent === "pi") {
    if (model !== (input.parent.model ?? null)) reasons.push(`model ${model} differs from the parent's ${input.parent.model ?? "(none)"}`);
    const parentThinking = input.parent.thinking?.trim().toLowerCase() || "off";
    if (thinking !== parentThinking) reasons.push(`thinking ${thinking} differs from the parent's ${parentThinking}`);
  }
  if (legacy.length > 0) reasons.push(`deprecated kind defaults contributed: ${legacy.join(", ")}`);
  if (input.handoff) reasons.push("reviewed handoff worker");

  const summary = [
    `Kind: ${kind.name} · ${kindAuthority(kind)}${kind.source === "builtin" ? "" : ` · ${kind.source} kind`}`,
    input.agent === "pi" ? `Model: ${model} (${modelSource})` : isMcpAgent(input.agent) ? `Agent: ${input.agent} · model ${model ?? "default"} (${modelSource})` : "Model: none (command agent)",
    input.agent === "pi" ? `Thinking: ${thinking} (${thinkingSource})` : isMcpAgent(input.agent) ? `Thinking: ${thinkingSource}` : "Thinking: off (command agent)",
    context === "seeded" ? `Context: seeded parent session ${seedFile} (${contextSource})` : `Context: fresh (${contextSource})`,
    workspace === "isolated" ? `Workspace: isolated worker workspace (${workspaceSource})` : `Workspace: parent directory (${workspaceSource})`,
  ];
  if (thinkingNote) summary.push(`Thinking adjusted: ${thinkingNote}`);
  if (legacy.length > 0) {
    summary.push(`Deprecated kind defaults: ${legacy.join(", ")} from ${kind.path ?? kind.name}; move them to spawn flags or worker config before the next major release`);
  }
  if (reasons.length > 0 && (!input.interactive || input.yes)) {
    summary.push(`Confirmation not asked (${input.yes ? (input.yesFrom ?? "--yes") : "non-interactive"}): ${reasons.join("; ")}`);
  }

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
