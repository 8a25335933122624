// The agents a worker can run, where each is on this machine, and the launch of the MCP-speaking ones (Claude, Codex).
// A Claude Code or Codex launch writes the agent's private config under the worker's directory, then runs its CLI.

import { join } from "node:path";
import { refusal } from "../../domain/errors.js";
import {
  AGENT_TRAITS,
  WORKER_AGENTS,
  isMcpAgent,
  type McpAgent,
  type WorkerAgent,
} from "../../domain/agents/traits.js";
import type { LocatedAgent } from "../../substrate/agents/locate.js";
import type { McpAgentSpec, PreparedAgent } from "../../substrate/agents/mcp-agent.js";
import { systemAgents, type Agents, type McpAgents } from "../../substrate/agents/port.js";

export interface AgentAvailability {
  agent: WorkerAgent;
  /** Where the CLI was found; `builtin` for pi (a dependency) and command (any shell command). */
  source: "node_modules" | "PATH" | "builtin" | "missing";
  /** The argv prefix a launch runs; empty when missing. */
  command: string[];
}

/** What `docket kinds` and `docket ls` show of each agent (outside any engine context: the agents on this machine). */
export function listAgents(pathValue: string | undefined, agents: Agents = systemAgents): AgentAvailability[] {
  return WORKER_AGENTS.map((agent): AgentAvailability => {
    if (isMcpAgent(agent)) {
      const found = agents.locate(agent, pathValue);
      return found
        ? { agent, source: found.source, command: found.command }
        : { agent, source: "missing", command: [] };
    }
    const command = AGENT_TRAITS[agent].runsUserCommand ? ["sh", "-c", "<--cmd>"] : [process.execPath, agents.piCli()];
    return { agent, source: "builtin", command };
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
export function requireMcpAgent(agents: McpAgents, agent: McpAgent, pathValue: string | undefined): LocatedAgent {
  const located = agents.locate(agent, pathValue);
  if (!located) {
    const { displayName, program } = AGENT_TRAITS[agent];
    throw refusal(
      "agent-not-found",
      `${displayName} is not installed: it is neither in Docket's node_modules nor on PATH`,
      `${program.install}, or pick another --agent`,
    );
  }
  return located;
}

/** Writes the agent's private config and returns its argv and the variables that point it there. */
export function prepareMcpAgent(agents: McpAgents, agent: McpAgent, spec: McpAgentSpec): PreparedAgent {
  return agents.prepare(agent, spec, requireMcpAgent(agents, agent, spec.env.PATH));
}

/** The argv a launch would run, without writing anything (`--dry-run`). */
export function previewMcpAgent(agents: McpAgents, agent: McpAgent, spec: McpAgentSpec): string[] {
  return agents.argv(agent, spec, requireMcpAgent(agents, agent, spec.env.PATH));
}

export function agentConfigDir(workerDir: string, agent: McpAgent): string {
  return join(workerDir, agent);
}
