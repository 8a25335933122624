// A real Claude Code worker against the scripted Messages API (fake-anthropic.ts): the spawn that points it there, the
// request that shows Docket's MCP tools connected, and its docket_done once they are.

import type { AgentGround } from "./agent-worker.js";
import type { CliRun } from "./docket-cli.js";
import { onceListed, type RecordedRequest, type ScriptEntry } from "./fake-model-server.js";
import { UNGATED_KIND } from "./scripted-pi.js";

/** A key of the shape Claude Code accepts; only the scripted API ever sees it. */
export const CLAUDE_KEY = "sk-ant-test-0123456789abcdefghij";

/** The `--env` flags that point Claude Code at this Messages API. */
export function claudeApiEnv(url: string, key = CLAUDE_KEY): string[] {
  return ["--env", `ANTHROPIC_BASE_URL=${url}`, "--env", `ANTHROPIC_API_KEY=${key}`];
}

/** `docket spawn --agent claude --json` of this task against the API at `url` (an ungated writable kind unless `kind`). */
export function spawnClaude(
  g: AgentGround,
  url: string,
  task: string,
  opts: { kind?: string; key?: string; args?: string[] } = {},
): CliRun {
  const { kind = UNGATED_KIND, key, args = [] } = opts;
  return g.run("spawn", "--agent", "claude", "--as", kind, ...args, ...claudeApiEnv(url, key), "--json", task);
}

/** Whether Claude Code's request lists Docket's MCP tools (it connects them while its first requests are under way). */
export const listsDocket = (r: RecordedRequest) =>
  (r.body?.tools ?? []).some((x: { name?: string }) => x.name === "mcp__docket__docket_done");

/** Claude Code's `docket_done` (uppercased two, completed) once Docket's tools are listed; a Glob answers before that. */
export const claudeDone = (): ScriptEntry =>
  onceListed(
    listsDocket,
    {
      tools: [
        {
          name: "mcp__docket__docket_done",
          id: "toolu_done",
          input: { body: "Uppercased two.", outcome: "completed", summary: "uppercased two" },
        },
      ],
    },
    { tools: [{ name: "Glob", input: { pattern: "*.md" } }] },
  );
