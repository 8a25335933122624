// Real Claude Code and Codex workers against scripted APIs that report known token usage: spend --json, show --json
// and the verdict card show exactly those totals, split by version, at the registry's prices for the model each named.

import { test } from "node:test";
import assert from "node:assert/strict";
import { assertSpendShown, pricedUsage } from "../../support/priced-usage.js";
import { agentGround } from "../../support/agent-worker.js";
import { CLAUDE_CASE, CODEX_CASE, type McpAgentCase } from "../../support/mcp-agent-cases.js";
import { onceListed, type ScriptedToolCall, type ScriptedUsage } from "../../support/fake-model-server.js";

const NONE: ScriptedUsage = { input: 0, output: 0 };

/** Each agent's model, its first look around, and the cache writes its wire can report. */
const CASES: { a: McpAgentCase; model: string; look: ScriptedToolCall; cacheWrite: number }[] = [
  {
    a: CLAUDE_CASE,
    model: "claude-sonnet-4-5",
    look: { name: "Glob", id: "toolu_glob", input: { pattern: "*.md" } },
    cacheWrite: 800,
  },
  // OpenAI has no cache writes: the Responses wire reports cached tokens inside input_tokens.
  {
    a: CODEX_CASE,
    model: "gpt-5-codex",
    look: { name: "exec_command", id: "call_ls", input: { cmd: "ls" } },
    cacheWrite: 0,
  },
];

for (const { a, model: modelName, look, cacheWrite } of CASES) {
  test(`a ${a.name} worker's scripted usage shows exactly in spend, show and the verdict card, at the registry's price`, {
    timeout: 300_000,
  }, async (t) => {
    const { totals, sum } = pricedUsage(a.provider, modelName);
    const g = agentGround(t);
    const first = { input: 1200, output: 300, cacheRead: 4000, cacheWrite };
    const done = { input: 50, output: 120, cacheRead: 5000, cacheWrite: 0 };
    const after = { input: 20, output: 40, cacheRead: 5100, cacheWrite: 0 };
    const model = await a.startModel([
      { text: "Looking around.", usage: first, tools: [look] },
      // While the agent connects its MCP servers it is asked again: those fillers report no tokens.
      onceListed(
        a.listsDocket,
        {
          text: "Publishing.",
          usage: done,
          tools: [
            a.docketCall("docket_done", a.callId("done"), {
              body: "Looked around.",
              outcome: "findings",
              summary: "looked",
            }),
          ],
        },
        { ...a.filler, usage: NONE },
      ),
      { text: "Published v1.", usage: after },
    ]);
    t.after(() => model.close());
    g.watch(model);

    const spawned = a.spawn(g, model, ["--as", "scout", "--model", modelName], "look around");
    assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
    await g.until("w1 ready with v1", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");
    // Summed call by call, as the reader sums them (so the float sums match bit for bit).
    const v1 = sum(totals(first), totals(done));
    await assertSpendShown(g, v1, totals(after), sum);
  });
}
