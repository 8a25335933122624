// The spawn policy's input and its resolved result, with a literal union for where each setting came from.
// The `…Source` values are what `docket spawn` prints beside each setting (docs/decisions/spawn-policy.md).

import type { McpAgent, SeedingAgent, WorkerAgent } from "../agents/traits.js";
import type { WorkerKind } from "./kinds.js";

/** Where each resolved setting came from, as `docket spawn` prints it (the `…Source` fields of a resolution). */
export type KindSource =
  | "handoff choice"
  | "--as"
  | "config worker.defaultKind"
  | "built-in default"
  | `default (${string} kind)`;
export type ModelSource =
  | "not used by command agents"
  | "handoff choice"
  | "--model"
  | `${McpAgent}'s own default`
  | `legacy kind model (${string})`
  | "parent model";
export type ThinkingSource =
  | "not used by command agents"
  | `not set by Docket for ${McpAgent}`
  | "handoff choice"
  | "--thinking"
  | `legacy kind thinking (${string})`
  | "default (your pi has no thinking level)"
  | "parent thinking";
export type SeedSource = "--seed" | "config worker.parentSeedPolicy" | `legacy kind parent_seed (${string})`;
export type ContextSource =
  | "handoff (always fresh)"
  | "--fresh"
  | "default"
  | SeedSource
  | `${SeedSource}, not applicable to ${Exclude<WorkerAgent, SeedingAgent>} agents`
  | `${SeedSource}, no pi session file`;
export type WorkspaceSource =
  | "--worktree"
  | `legacy kind default_worktree (${string})`
  | "read-only kind"
  | "writable kind";

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
