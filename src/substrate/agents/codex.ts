// The Codex launcher: its interactive CLI with `docket mcp` as an MCP server in a private CODEX_HOME, the kind's
// authority as its sandbox, and Codex's notify program telling Docket when a turn ends (hooks would need trust).

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { LocatedAgent } from "./locate.js";
import { docketVariableNames, writePrivateFile, type McpAgentSpec, type PreparedAgent } from "./mcp-agent.js";

/**
 * Uncontained, read-only kinds run in Codex's read-only sandbox and writable kinds in workspace-write. Contained, Docket's
 * sandbox is the boundary for every kind: Codex's own is bubblewrap too and cannot start inside it (no capabilities to map
 * a nested user namespace), so it is off. Nothing ever waits for approval.
 */
export function codexPermissionArgs(spec: Pick<McpAgentSpec, "readOnly" | "contained">): string[] {
  if (spec.contained) return ["--sandbox", "danger-full-access", "--ask-for-approval", "never"];
  return ["--sandbox", spec.readOnly ? "read-only" : "workspace-write", "--ask-for-approval", "never"];
}

export function codexArgv(spec: McpAgentSpec, located: LocatedAgent): string[] {
  return [
    ...located.command,
    ...codexPermissionArgs(spec),
    // The worker is this process: no shared background server that would outlive it (or serve another worker).
    "--no-daemon",
    "--cd",
    spec.cwd,
    ...(spec.model ? ["--model", spec.model] : []),
    ...spec.extraArgs,
    spec.prompt,
  ];
}

/** A TOML basic string (JSON's escapes are a subset TOML accepts). */
const toml = (value: string): string => JSON.stringify(value);
const tomlList = (values: readonly string[]): string => `[${values.map(toml).join(", ")}]`;

export function codexConfig(spec: McpAgentSpec): string {
  return [
    "# Written by Docket for this worker at every launch; the user's own ~/.codex is not read.",
    `developer_instructions = ${toml(spec.instructions)}`,
    `notify = ${tomlList([spec.docket.node, spec.docket.bin, "worker", "hook", "notify"])}`,
    "",
    `[projects.${toml(spec.workspace)}]`,
    'trust_level = "trusted"',
    "",
    "[mcp_servers.docket]",
    `command = ${toml(spec.docket.node)}`,
    `args = ${tomlList([spec.docket.bin, "mcp"])}`,
    // Codex gives MCP servers a filtered environment: name what `docket mcp` reads (names only, never values).
    `env_vars = ${tomlList(docketVariableNames(spec.env))}`,
    'default_tools_approval_mode = "approve"',
    "",
  ].join("\n");
}

export function prepareCodex(spec: McpAgentSpec, located: LocatedAgent): PreparedAgent {
  writePrivateFile(join(spec.configDir, "config.toml"), codexConfig(spec));
  return { argv: codexArgv(spec, located), env: { CODEX_HOME: spec.configDir } };
}

/**
 * Whether a notify payload's thread is the worker's own conversation: Codex also runs side threads (a task title)
 * that notify too, and only the main thread keeps a rollout file under CODEX_HOME/sessions.
 */
export function isCodexMainThread(codexHome: string, threadId: string): boolean {
  if (!/^[0-9a-f-]{8,64}$/i.test(threadId)) return false;
  const walk = (dir: string, depth: number): boolean => {
    if (!existsSync(dir)) return false;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && depth < 3 && walk(join(dir, entry.name), depth + 1)) return true;
      if (entry.isFile() && entry.name.startsWith("rollout-") && entry.name.endsWith(`-${threadId}.jsonl`)) return true;
    }
    return false;
  };
  return walk(join(codexHome, "sessions"), 0);
}
