// A real Claude Code worker against a scripted Anthropic API that reports known token usage: spend --json, show --json
// and the verdict card show exactly those totals, split by version, at the registry's prices for the model it named.

import { test } from "node:test";
import assert from "node:assert/strict";
import { assertSpendShown, pricedUsage } from "../../support/priced-usage.js";
import { agentGround } from "../../support/agent-worker.js";
import { claudeApiEnv, listsDocket } from "../../support/claude-worker.js";
import { startFakeAnthropic } from "../../support/fake-anthropic.js";
import { onceListed, type ScriptedUsage } from "../../support/fake-model-server.js";

const MODEL = "claude-sonnet-4-5";
const NONE: ScriptedUsage = { input: 0, output: 0 };

test("a Claude Code worker's scripted usage shows exactly in spend, show and the verdict card, at the registry's price", {
  timeout: 300_000,
}, async (t) => {
  const { totals, sum } = pricedUsage("anthropic", MODEL);
  const g = agentGround(t);
  const first = { input: 1200, output: 300, cacheRead: 4000, cacheWrite: 800 };
  const done = { input: 50, output: 120, cacheRead: 5000, cacheWrite: 0 };
  const after = { input: 20, output: 40, cacheRead: 5100, cacheWrite: 0 };
  const model = await startFakeAnthropic([
    { text: "Looking around.", usage: first, tools: [{ name: "Glob", id: "toolu_glob", input: { pattern: "*.md" } }] },
    // While Claude Code connects its MCP servers it is asked again: those fillers report no tokens.
    onceListed(
      listsDocket,
      {
        text: "Publishing.",
        usage: done,
        tools: [
          {
            name: "mcp__docket__docket_done",
            id: "toolu_done",
            input: { body: "Looked around.", outcome: "findings", summary: "looked" },
          },
        ],
      },
      { tools: [{ name: "Glob", input: { pattern: "*.txt" } }], usage: NONE },
    ),
    { text: "Published v1.", usage: after },
  ]);
  t.after(() => model.close());
  g.watch(model);

  const spawned = g.run(
    "spawn",
    "--agent",
    "claude",
    "--as",
    "scout",
    "--model",
    MODEL,
    ...claudeApiEnv(model.url),
    "--json",
    "look",
    "around",
  );
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  await g.until("w1 ready with v1", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");
  // Summed call by call, as the reader sums them (so the float sums match bit for bit).
  const v1 = sum(totals(first), totals(done));
  await assertSpendShown(g, v1, totals(after), sum);
});
