// The human summary of one resolved spawn, as `docket spawn` prints it and the confirmation screen shows it.
// Formatting only: the resolver in spawn-policy.ts decides every value and source; this turns them into words.

import { AGENT_TRAITS, type WorkerAgent } from "../agents/traits.js";
import { kindAuthority, type WorkerKind } from "./kinds.js";

/** What the summary reads: the resolved values and sources, the kind they came from, and how confirmation went. */
export interface SpawnSummaryInput {
  agent: WorkerAgent;
  kind: WorkerKind;
  model: string | null;
  modelSource: string;
  thinking: string;
  thinkingSource: string;
  thinkingNote?: string;
  context: "fresh" | "seeded";
  contextSource: string;
  seedFile?: string;
  workspace: "isolated" | "shared";
  workspaceSource: string;
  legacyContributions: string[];
  confirmReasons: string[];
  interactive: boolean;
  yes: boolean;
  yesFrom?: string;
}

/** One line per setting with where it came from, then adjustments, deprecations and a waived confirmation. */
export function formatSpawnSummary(s: SpawnSummaryInput): string[] {
  const { kind, legacyContributions: legacy, confirmReasons: reasons } = s;
  const summary = [
    `Kind: ${kind.name} · ${kindAuthority(kind)}${kind.source === "builtin" ? "" : ` · ${kind.source} kind`}`,
    formatModelLine(s),
    formatThinkingLine(s),
    s.context === "seeded"
      ? `Context: seeded from your pi session ${s.seedFile} (${s.contextSource})`
      : `Context: fresh (${s.contextSource})`,
    s.workspace === "isolated"
      ? `Workspace: isolated worker workspace (${s.workspaceSource})`
      : `Workspace: parent directory (${s.workspaceSource})`,
  ];
  if (s.thinkingNote) summary.push(`Thinking adjusted: ${s.thinkingNote}`);
  if (legacy.length > 0) {
    summary.push(
      `Deprecated kind defaults: ${legacy.join(", ")} from ${kind.path ?? kind.name}; ` +
        "move them to spawn flags or worker config before the next major release",
    );
  }
  if (reasons.length > 0 && (!s.interactive || s.yes)) {
    const waivedBy = s.yes ? (s.yesFrom ?? "--yes") : "non-interactive";
    summary.push(`Confirmation not asked (${waivedBy}): ${reasons.join("; ")}`);
  }
  return summary;
}

function formatModelLine(s: SpawnSummaryInput): string {
  switch (AGENT_TRAITS[s.agent].model) {
    case "docket-picks":
      return `Model: ${s.model} (${s.modelSource})`;
    case "passed-through":
      return `Agent: ${s.agent} · model ${s.model ?? "default"} (${s.modelSource})`;
    case "none":
      return "Model: none (command agent)";
  }
}

function formatThinkingLine(s: SpawnSummaryInput): string {
  switch (AGENT_TRAITS[s.agent].model) {
    case "docket-picks":
      return `Thinking: ${s.thinking} (${s.thinkingSource})`;
    case "passed-through":
      return `Thinking: ${s.thinkingSource}`;
    case "none":
      return "Thinking: off (command agent)";
  }
}
