// A real Claude Code worker whose Messages API answers 401: Docket shows it `blocked`, in Claude Code's own
// words, in ls, show and attention, instead of `thinking` forever with the complaint only in its pane.

import { test } from "node:test";
import assert from "node:assert/strict";
import { agentGround } from "../../support/agent-worker.js";
import { spawnClaude } from "../../support/claude-worker.js";
import { startRefusingAnthropic } from "../../support/fake-anthropic.js";
import { jsonOf } from "../../support/docket-cli.js";

test("a Claude Code worker refused by its API (401) shows blocked with Claude Code's words and one attention line", {
  timeout: 300_000,
}, async (t) => {
  const g = agentGround(t);
  const api = await startRefusingAnthropic();
  t.after(() => api.close());
  g.watch(api);
  const spawned = spawnClaude(g, api.url, "say hello", { key: "sk-ant-wrong-0123456789abcdefghij" });
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  const listed = await g.until("w1 blocked", () => {
    const w = jsonOf(g.run("ls", "--json")).workers.find((x: { worker: string }) => x.worker === "w1");
    return w?.state === "blocked" ? w : undefined;
  });
  assert.ok(
    api.requests.some((r) => r.path.startsWith("/v1/messages")),
    "Claude Code asked the API",
  );
  assert.match(listed.reason, /401 invalid x-api-key|Invalid API key|API Error: 401|\/login/i);
  const shown = jsonOf(g.run("show", "w1", "--json"));
  assert.equal(shown.state, "blocked");
  assert.equal(shown.reason, listed.reason);
  const blocked = jsonOf(g.run("attention", "--json")).notifications.filter(
    (n: { kind: string; worker: string }) => n.kind === "blocked" && n.worker === "w1",
  );
  assert.equal(blocked.length, 1, "one line, however often its words change while it retries");
  assert.match(blocked[0].body, /401|Invalid API key|\/login/i);
  assert.doesNotMatch(listed.reason, /retrying in/, "the countdown is not part of its words");
});
