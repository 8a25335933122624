// A real Codex worker against a scripted Responses API that reports known token usage: spend --json, show --json and
// the verdict card show exactly those totals, split by version, at the registry's prices for the model it ran.

import { test } from "node:test";
import assert from "node:assert/strict";
import { assertSpendShown, pricedUsage } from "../../support/priced-usage.js";
import { agentGround } from "../../support/agent-worker.js";
import { startFakeOpenAI } from "../../support/fake-openai.js";
import { onceListed, type RecordedRequest, type ScriptedUsage } from "../../support/fake-model-server.js";

const MODEL = "gpt-5-codex";
const DOCKET = "mcp__docket";
const listsDocket = (r: RecordedRequest) => (r.body?.tools ?? []).some((x: { name?: string }) => x.name === DOCKET);
const NONE: ScriptedUsage = { input: 0, output: 0 };

test("a Codex worker's scripted usage shows exactly in spend, show and the verdict card, at the registry's price", {
  timeout: 300_000,
}, async (t) => {
  const { totals, sum } = pricedUsage("openai", MODEL);
  const g = agentGround(t);
  // OpenAI has no cache writes: the Responses wire reports cached tokens inside input_tokens.
  const first = { input: 1200, output: 300, cacheRead: 4000, cacheWrite: 0 };
  const done = { input: 50, output: 120, cacheRead: 5000, cacheWrite: 0 };
  const after = { input: 20, output: 40, cacheRead: 5100, cacheWrite: 0 };
  const model = await startFakeOpenAI([
    { text: "Looking around.", usage: first, tools: [{ name: "exec_command", id: "call_ls", input: { cmd: "ls" } }] },
    // While Codex connects its MCP servers it is asked again: those fillers report no tokens.
    onceListed(
      listsDocket,
      {
        text: "Publishing.",
        usage: done,
        tools: [
          {
            namespace: DOCKET,
            name: "docket_done",
            id: "call_done",
            input: { body: "Looked around.", outcome: "findings", summary: "looked" },
          },
        ],
      },
      { tools: [{ name: "exec_command", input: { cmd: "true" } }], usage: NONE },
    ),
    { text: "Published v1.", usage: after },
  ]);
  g.configure({
    codex: {
      extraArgs: [
        "-c",
        'model_provider="scripted"',
        "-c",
        `model_providers.scripted={name="scripted",base_url="${model.url}/v1",wire_api="responses",env_key="SCRIPTED_KEY"}`,
      ],
    },
  });
  t.after(() => model.close());
  g.watch(model);

  const spawned = g.run(
    "spawn",
    "--agent",
    "codex",
    "--as",
    "scout",
    "--model",
    MODEL,
    "--env",
    "SCRIPTED_KEY=sk-test",
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
