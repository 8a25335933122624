// What a launcher of an MCP-speaking agent (Claude Code, Codex) needs, and how its private config files are written.
// Each worker gets its own config directory (0700) and files (0600): the user's settings for other folders stay as they are.

import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface McpAgentSpec {
  /** The worker's private config directory for this agent (CLAUDE_CONFIG_DIR / CODEX_HOME). */
  configDir: string;
  /** Where the agent starts (the worker's workspace, or the parent's subdirectory inside it). */
  cwd: string;
  /** The workspace root: a writable worker edits only here. */
  workspace: string;
  readOnly: boolean;
  /** Passed through exactly as the CLI names models; null leaves the agent's own default. */
  model: string | null;
  /** User-config arguments appended to the agent's command line. */
  extraArgs: readonly string[];
  /** The first prompt. */
  prompt: string;
  /** Text added to the agent's own system or developer instructions (guardrails, kind). */
  instructions: string;
  /** How the agent runs `docket mcp` and Docket's hooks: this Node and Docket's bin script. */
  docket: { node: string; bin: string };
  /** The worker's environment as launched (read for the key suffix and the names the MCP server needs; never written). */
  env: Readonly<Record<string, string>>;
  /** Continue the previous generation's conversation where the agent keeps one. */
  resume: boolean;
  /** The agent's own permission prompts off (Claude's bypass mode): only ever set for a worker inside Docket's sandbox. */
  unattended?: boolean;
  /** Inside Docket's sandbox: the agent's own sandbox cannot nest there (no capabilities for a user namespace). */
  contained?: boolean;
}

export interface PreparedAgent {
  argv: string[];
  /** Variables added to the worker's environment (paths and switches, never secrets). */
  env: Record<string, string>;
}

/** Writes a private file (0600, also when it already existed with wider bits) under a private directory (0700). */
export function writePrivateFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  writeFileSync(path, content, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** Names of the variables Docket's MCP server and hooks read (an agent that filters its children's env must pass them). */
export function docketVariableNames(env: Readonly<Record<string, string>>): string[] {
  return Object.keys(env)
    .filter((k) => k.startsWith("DOCKET_") || k === "PI_CODING_AGENT_DIR")
    .sort();
}
