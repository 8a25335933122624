// The launcher port: what the engine asks of the agents a worker runs — pi's CLI, its models and defaults, and Claude
// Code / Codex found on this machine with their private config written. The EngineContext carries it (`ctx.agents`).

import { claudeArgv, prepareClaude } from "./claude.js";
import { codexArgv, isCodexMainThread, prepareCodex } from "./codex.js";
import { locateClaude, locateCodex, type LocatedAgent } from "./locate.js";
import type { McpAgentSpec, PreparedAgent } from "./mcp-agent.js";
import { listModels, piDefaults, resolvePiAgentDir, resolvePiCli, resolvePiExtraArgs } from "./pi.js";

type McpAgent = "claude" | "codex";

export interface Agents {
  /** pi's CLI script (a dependency), run with this node. */
  piCli(): string;
  /** pi's extra arguments: config's list, else DOCKET_PI_ARGS split on whitespace. */
  piExtraArgs: typeof resolvePiExtraArgs;
  /** pi's models for these extra arguments, cached and listed one process at a time. */
  listModels: typeof listModels;
  /** pi's configured default model and thinking (the parent's, when spawned outside pi). */
  piDefaults(env: NodeJS.ProcessEnv, home: string): { model?: string; thinking?: string };
  /** Claude Code or Codex on this machine: Docket's node_modules first, then PATH. */
  locate(agent: McpAgent, pathValue: string | undefined): LocatedAgent | undefined;
  /** Writes the agent's private config under the worker's directory; the argv and variables that point it there. */
  prepare(agent: McpAgent, spec: McpAgentSpec, located: LocatedAgent): PreparedAgent;
  /** The argv a launch would run, writing nothing (`--dry-run`). */
  argv(agent: McpAgent, spec: McpAgentSpec, located: LocatedAgent): string[];
  /** Whether a Codex hook's thread is the worker's own conversation (not a side thread), from its CODEX_HOME. */
  isCodexMainThread(codexHome: string, threadId: string): boolean;
}

export const systemAgents: Agents = {
  piCli: resolvePiCli,
  piExtraArgs: resolvePiExtraArgs,
  listModels,
  piDefaults: (env, home) => piDefaults(resolvePiAgentDir(env, home)),
  locate: (agent, pathValue) => (agent === "claude" ? locateClaude(pathValue) : locateCodex(pathValue)),
  prepare: (agent, spec, located) => (agent === "claude" ? prepareClaude(spec, located) : prepareCodex(spec, located)),
  argv: (agent, spec, located) => (agent === "claude" ? claudeArgv(spec, located) : codexArgv(spec, located)),
  isCodexMainThread,
};
