// The agents a worker can run, where each is on this machine, and the launch of the MCP-speaking ones (Claude, Codex).
// A Claude Code or Codex launch writes the agent's private config under the worker's directory, then runs its CLI.

import { join } from "node:path";
import { refusal } from "../../domain/errors.js";
import { WORKER_AGENTS, type WorkerAgent } from "../../domain/workers/spawn-policy.js";
import { claudeArgv, prepareClaude } from "../../substrate/agents/claude.js";
import { codexArgv, prepareCodex } from "../../substrate/agents/codex.js";
import { locateClaude, locateCodex, type LocatedAgent } from "../../substrate/agents/locate.js";
import type { McpAgentSpec, PreparedAgent } from "../../substrate/agents/mcp-agent.js";
import { resolvePiCli } from "../../substrate/agents/pi.js";

export interface AgentAvailability {
  agent: WorkerAgent;
  /** Where the CLI was found; `builtin` for pi (a dependency) and command (any shell command). */
  source: "node_modules" | "PATH" | "builtin" | "missing";
  /** The argv prefix a launch runs; empty when missing. */
  command: string[];
}

export function locateMcpAgent(agent: "claude" | "codex", pathValue: string | undefined): LocatedAgent | undefined {
  return agent === "claude" ? locateClaude(pathValue) : locateCodex(pathValue);
}

export function listAgents(pathValue: string | undefined): AgentAvailability[] {
  return WORKER_AGENTS.map((agent): AgentAvailability => {
    if (agent === "pi") return { agent, source: "builtin", command: [process.execPath, resolvePiCli()] };
    if (agent === "command") return { agent, source: "builtin", command: ["sh", "-c", "<--cmd>"] };
    const found = locateMcpAgent(agent, pathValue);
    return found ? { agent, source: found.source, command: found.command } : { agent, source: "missing", command: [] };
  });
}

/** What a Claude Code or Codex worker is told beyond the guardrails: where its tools are and where its body goes. */
export function mcpAgentInstructions(guardrails: string): string {
  return [
    guardrails,
    "",
    "## This agent",
    "- Your four Docket tools are the MCP tools of the `docket` server (docket_todos, docket_wait, docket_done, docket_fail).",
    "- With this agent the deliverable body is the `body` argument of docket_done: put the FULL deliverable text there.",
    "  Text you write outside that argument is not part of the deliverable (this replaces the rule about the same response).",
  ].join("\n");
}

/** The agent's CLI, or the refusal that says it is not installed and how to install it. */
export function requireMcpAgent(agent: "claude" | "codex", pathValue: string | undefined): LocatedAgent {
  const located = locateMcpAgent(agent, pathValue);
  if (!located) {
    throw refusal(
      "agent-not-found",
      `${agent === "claude" ? "Claude Code (claude)" : "Codex (codex)"} is not installed: it is neither in Docket's node_modules nor on PATH`,
      agent === "claude" ? "npm install -g @anthropic-ai/claude-code, or pick another --agent" : "npm install -g @openai/codex, or pick another --agent",
    );
  }
  return located;
}

/** Writes the agent's private config and returns its argv and the variables that point it there. */
export function prepareMcpAgent(agent: "claude" | "codex", spec: McpAgentSpec): PreparedAgent {
  const located = requireMcpAgent(agent, spec.env.PATH);
  return agent === "claude" ? prepareClaude(spec, located) : prepareCodex(spec, located);
}

/** The argv a launch would run, without writing anything (`--dry-run`). */
export function previewMcpAgent(agent: "claude" | "codex", spec: McpAgentSpec): string[] {
  const located = requireMcpAgent(agent, spec.env.PATH);
  return agent === "claude" ? claudeArgv(spec, located) : codexArgv(spec, located);
}

export function agentConfigDir(workerDir: string, agent: "claude" | "codex"): string {
  return join(workerDir, agent);
}

