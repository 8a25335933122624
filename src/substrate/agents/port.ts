// The launcher port: what the engine asks of the agents a worker runs — pi's CLI, its models and defaults, and Claude
// Code / Codex found on this machine with their private config written. The EngineContext carries it (`ctx.agents`);
// its two jobs are named apart, so a use-case can ask for only pi or only the MCP agents.

import { blockedLine } from "./signatures.js";
import { lazyModule } from "../require-esm.js";
import type { LocatedAgent } from "./locate.js";
import type { McpAgentSpec, PreparedAgent } from "./mcp-agent.js";
import type { ListModelsOptions, ModelListing } from "./pi.js";

type McpAgent = "claude" | "codex";

/** pi, the default agent: its CLI, extra arguments, models and defaults. */
export interface PiAgent {
  /** pi's CLI script (a dependency), run with this node. */
  piCli(): string;
  /** pi's extra arguments: config's list, else DOCKET_PI_ARGS split on whitespace. */
  piExtraArgs(configArgs: readonly string[], envValue: string | undefined): string[];
  /** pi's models for these extra arguments, cached and listed one process at a time. */
  listModels(
    extraArgs: readonly string[],
    env: NodeJS.ProcessEnv,
    cwd: string,
    options?: ListModelsOptions,
  ): ModelListing;
  /** pi's configured default model and thinking (the parent's, when spawned outside pi). */
  piDefaults(env: NodeJS.ProcessEnv, home: string): { model?: string; thinking?: string };
}

/** Claude Code and Codex, which reach Docket over MCP: found, prepared with private config, and their hooks read. */
export interface McpAgents {
  /** Claude Code or Codex on this machine: Docket's node_modules first, then PATH. */
  locate(agent: McpAgent, pathValue: string | undefined): LocatedAgent | undefined;
  /** Writes the agent's private config under the worker's directory; the argv and variables that point it there. */
  prepare(agent: McpAgent, spec: McpAgentSpec, located: LocatedAgent): PreparedAgent;
  /** The argv a launch would run, writing nothing (`--dry-run`). */
  argv(agent: McpAgent, spec: McpAgentSpec, located: LocatedAgent): string[];
  /** Whether a Codex hook's thread is the worker's own conversation (not a side thread), from its CODEX_HOME. */
  isCodexMainThread(codexHome: string, threadId: string): boolean;
}

/** What an agent's screen says about it (signatures.ts: one table per agent). */
export interface AgentScreens {
  /** The line of a pane that says the agent stopped on an auth, model or quota error; undefined when none does. */
  blockedLine(agent: string, paneText: string): string | undefined;
}

/** Every agent a worker may run. */
export type Agents = PiAgent & McpAgents & AgentScreens;

// The agents' modules load on the first call (`require` of an ES module): a
// process that launches nothing (a verdict, a listing) never reads them.
type System = typeof import("./system-agents.js");
const system = lazyModule<System>(import.meta.url, "./system-agents.js");
const real = (): Agents => system().realAgents;

export const systemAgents: Agents = {
  piCli: () => real().piCli(),
  piExtraArgs: (configArgs, envValue) => real().piExtraArgs(configArgs, envValue),
  listModels: (extraArgs, env, cwd, options) => real().listModels(extraArgs, env, cwd, options),
  piDefaults: (env, home) => real().piDefaults(env, home),
  locate: (agent, pathValue) => real().locate(agent, pathValue),
  prepare: (agent, spec, located) => real().prepare(agent, spec, located),
  argv: (agent, spec, located) => real().argv(agent, spec, located),
  isCodexMainThread: (codexHome, threadId) => real().isCodexMainThread(codexHome, threadId),
  blockedLine, // a table and a scan: nothing to load
};
