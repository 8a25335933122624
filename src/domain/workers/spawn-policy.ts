// The one pure spawn-policy resolver: kind, model, thinking, context and workspace, chosen once
// (docs/decisions/spawn-policy.md). The same resolved object feeds validation, confirmation, persistence and launch;
// respawn never re-resolves.

import { AGENT_TRAITS, canSeedFromParent } from "../agents/traits.js";
import { validationError } from "../errors.js";
import { normalizeKindName, type WorkerKind } from "./kinds.js";
import { resolveAgentSettings, type AgentSettings } from "./spawn-model.js";
import type {
  ContextSource,
  KindSource,
  ResolvedExecution,
  SeedSource,
  SpawnPolicyInput,
  WorkspaceSource,
} from "./spawn-policy-types.js";
import { formatSpawnSummary } from "./spawn-summary.js";

export { WORKER_AGENTS, isMcpAgent, isWorkerAgent, type WorkerAgent } from "../agents/traits.js";
export { isThinkingLevel, splitModelRef, type ThinkingLevel } from "./spawn-model.js";
export type {
  ContextSource,
  KindSource,
  ModelSource,
  ResolvedExecution,
  SpawnPolicyInput,
  ThinkingSource,
  WorkspaceSource,
} from "./spawn-policy-types.js";

const abort = (message: string, hint?: string) => validationError("spawn-policy", message, hint);

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
    agent: input.agent,
    kind,
    model,
    modelSource,
    thinking,
    thinkingSource,
    ...(thinkingNote !== undefined ? { thinkingNote } : {}),
    context,
    contextSource,
    ...(seedFile !== undefined ? { seedFile } : {}),
    workspace,
    workspaceSource,
    legacyContributions: legacy,
    confirmReasons: reasons,
    interactive: input.interactive,
    yes: input.yes,
    ...(input.yesFrom !== undefined ? { yesFrom: input.yesFrom } : {}),
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
  if (AGENT_TRAITS[input.agent].model === "docket-picks") {
    const { model, thinking } = settings;
    if (model !== (input.parent.model ?? null)) {
      reasons.push(`model ${model} differs from your pi's ${input.parent.model ?? "(none)"}`);
    }
    const parentThinking = input.parent.thinking?.trim().toLowerCase() || "off";
    if (thinking !== parentThinking) reasons.push(`thinking ${thinking} differs from your pi's ${parentThinking}`);
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
    if (!kind) {
      throw abort(
        `unknown kind ${JSON.stringify(input.kindFlag)}; known kinds: ${known()}`,
        "run `docket kinds` to see what each one may do",
      );
    }
    return { kind, kindSource: input.handoff ? "handoff choice" : "--as" };
  }
  if (input.config.defaultKind !== undefined) {
    const name = normalizeKindName(input.config.defaultKind);
    const kind = name === undefined ? undefined : input.kinds.get(name);
    if (kind) return { kind, kindSource: "config worker.defaultKind" };
    const named = JSON.stringify(input.config.defaultKind);
    warnings.push(`config worker.defaultKind ${named} is not a known kind (known: ${known()}); using default`);
  }
  const fallback = input.kinds.get("default");
  if (!fallback) throw abort(`no default kind is registered; known kinds: ${known()}`, "pass --as <kind>");
  const kindSource: KindSource =
    fallback.source === "builtin" ? "built-in default" : `default (${fallback.source} kind)`;
  return { kind: fallback, kindSource };
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
    if (input.config.parentSeedPolicy === "fresh") {
      return { context: "fresh", contextSource: "config worker.parentSeedPolicy" };
    }
    [file, source] = [input.parent.sessionFile, "config worker.parentSeedPolicy"];
  } else if (kind.legacy.parentSeed !== undefined) {
    legacy.push("parent_seed");
    if (kind.legacy.parentSeed === "fresh") {
      return { context: "fresh", contextSource: `legacy kind parent_seed (${kind.name})` };
    }
    [file, source] = [input.parent.sessionFile, `legacy kind parent_seed (${kind.name})`];
  } else return { context: "fresh", contextSource: "default" };
  if (!canSeedFromParent(input.agent)) {
    warnings.push(`seeding requested by ${source} but ${input.agent} agents cannot be seeded; starting fresh`);
    return { context: "fresh", contextSource: `${source}, not applicable to ${input.agent} agents` };
  }
  if (!file) {
    warnings.push(`seeding requested by ${source} but your pi session has no session file; starting fresh`);
    return { context: "fresh", contextSource: `${source}, no pi session file` };
  }
  return { context: "seeded", contextSource: source, seedFile: file };
}
