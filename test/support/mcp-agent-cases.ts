// The two agents Docket drives over MCP (Claude Code, Codex) as their real-CLI tests see them, one row each: the
// scripted API it speaks, how a step calls Docket's tools or its own, and the spawn that points it at that API.

import type { AgentGround } from "./agent-worker.js";
import { claudeApiEnv, listsDocket as claudeListsDocket } from "./claude-worker.js";
import type { CliRun } from "./docket-cli.js";
import { anthropicTexts, anthropicToolResults, startFakeAnthropic } from "./fake-anthropic.js";
import {
  onceListed,
  type FakeModelServer,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedToolCall,
  type ScriptStep,
} from "./fake-model-server.js";
import { responsesTexts, responsesToolOutputs, startFakeOpenAI } from "./fake-openai.js";

export interface McpAgentCase {
  agent: "claude" | "codex";
  /** How a test's name says it. */
  name: string;
  /** The provider its records name, for the registry's prices. */
  provider: "anthropic" | "openai";
  startModel(script: ScriptEntry[]): Promise<FakeModelServer>;
  /** Whether a request lists Docket's MCP tools (the agent connects them while its first requests are under way). */
  listsDocket(r: RecordedRequest): boolean;
  /** The names of Docket's tools a request lists, sorted, without the agent's MCP prefix. */
  docketTools(r: RecordedRequest): string[];
  /** A scripted tool-call id in the agent's own style (`toolu_done`, `call_done`). */
  callId(name: string): string;
  /** A call of one of Docket's MCP tools (`docket_done`, …). */
  docketCall(tool: string, id: string, input: Record<string, unknown>): ScriptedToolCall;
  /** A harmless call of the agent's own tools while its MCP servers connect. */
  filler: ScriptStep;
  /** The texts a request sends the model (messages, tool results). */
  texts(r: RecordedRequest): string[];
  /** The results of the agent's own tool calls a request carries, by call id. */
  toolResults(r: RecordedRequest): { id: string; text: string; isError?: boolean }[];
  /** `docket spawn --agent <agent> … --json <task>`, with the config and variables that point it at `model`. */
  spawn(g: AgentGround, model: FakeModelServer, flags: readonly string[], task: string, config?: object): CliRun;
  /** The name its own MCP client gives, and where a tool call's id travels in a call's `_meta`. */
  mcpClient: string;
  callMeta(id: string): Record<string, unknown>;
}

/** Codex's MCP tools are listed as one namespace. */
const CODEX_DOCKET = "mcp__docket";

/** The user config that points Codex at the scripted server: a custom provider, given as Codex's own -c overrides. */
export function codexProviderConfig(url: string): { codex: { extraArgs: string[] } } {
  return {
    codex: {
      extraArgs: [
        "-c",
        'model_provider="scripted"',
        "-c",
        `model_providers.scripted={name="scripted",base_url="${url}/v1",wire_api="responses",env_key="SCRIPTED_KEY"}`,
      ],
    },
  };
}

export const CLAUDE_CASE: McpAgentCase = {
  agent: "claude",
  name: "Claude Code",
  provider: "anthropic",
  startModel: startFakeAnthropic,
  listsDocket: claudeListsDocket,
  docketTools: (r) =>
    (r.body?.tools ?? [])
      .map((x: { name: string }) => x.name)
      .filter((n: string) => n.startsWith("mcp__"))
      .map((n: string) => (n.startsWith("mcp__docket__") ? n.slice("mcp__docket__".length) : n))
      .sort(),
  callId: (name) => `toolu_${name}`,
  docketCall: (tool, id, input) => ({ name: `mcp__docket__${tool}`, id, input }),
  filler: { tools: [{ name: "Glob", input: { pattern: "*.md" } }] },
  texts: anthropicTexts,
  toolResults: anthropicToolResults,
  spawn: (g, model, flags, task, config) => {
    if (config) g.configure(config);
    return g.run("spawn", "--agent", "claude", ...flags, ...claudeApiEnv(model.url), "--json", task);
  },
  mcpClient: "claude-code",
  callMeta: (id) => ({ "claudecode/toolUseId": id }),
};

export const CODEX_CASE: McpAgentCase = {
  agent: "codex",
  name: "Codex",
  provider: "openai",
  startModel: startFakeOpenAI,
  listsDocket: (r) => (r.body?.tools ?? []).some((x: { name?: string }) => x.name === CODEX_DOCKET),
  docketTools: (r) =>
    (r.body?.tools ?? [])
      .find((x: { name?: string }) => x.name === CODEX_DOCKET)
      .tools.map((x: { name: string }) => x.name)
      .sort(),
  callId: (name) => `call_${name}`,
  docketCall: (tool, id, input) => ({ namespace: CODEX_DOCKET, name: tool, id, input }),
  filler: { tools: [{ name: "exec_command", input: { cmd: "true" } }] },
  texts: responsesTexts,
  toolResults: responsesToolOutputs,
  spawn: (g, model, flags, task, config) => {
    g.configure({ ...config, ...codexProviderConfig(model.url) });
    return g.run("spawn", "--agent", "codex", ...flags, "--env", "SCRIPTED_KEY=sk-test", "--json", task);
  },
  mcpClient: "codex-mcp-client",
  callMeta: (id) => ({ callId: id }),
};

/** Both, for a test written once and run per agent. */
export const MCP_AGENT_CASES: readonly McpAgentCase[] = [CLAUDE_CASE, CODEX_CASE];

/** The agent's docket_done (id `done`) once it lists Docket's tools; its own harmless tool until then. */
export function doneWhenListed(
  a: McpAgentCase,
  input: { body: string; outcome: string; summary: string },
  step: ScriptStep = {},
): ScriptEntry {
  return onceListed(
    a.listsDocket,
    { ...step, tools: [a.docketCall("docket_done", a.callId("done"), input)] },
    a.filler,
  );
}
