// A real Claude Code worker in its own network namespace: with network "allow" (the default) it reaches the
// scripted Messages API on 127.0.0.1 only through Docket's proxy, publishes v1, and every request is on its record;
// with network "none" it is refused by name before it starts, and its card and `show` say why.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentGround } from "../support/agent-worker.js";
import { claudeDone, spawnClaude } from "../support/claude-worker.js";
import { AS_CONFIGURED } from "../support/docket-cli.js";
import { startFakeAnthropic } from "../support/fake-anthropic.js";
import { webServer } from "../support/web.js";

test('network "allow": a contained Claude Code worker reaches its scripted API through the proxy, publishes v1, and its requests are on its record', {
  timeout: 300_000,
}, async (t) => {
  const g = agentGround(t);
  Object.assign(g.env, AS_CONFIGURED);
  g.configure({ sandbox: "required", worker: { unattended: true } });
  const file = join(g.workspace("w1"), "src", "app.txt");
  const model = await startFakeAnthropic([
    { tools: [{ name: "Edit", id: "toolu_edit", input: { file_path: file, old_string: "two", new_string: "TWO" } }] },
    claudeDone(),
    { text: "Published v1." },
  ]);
  t.after(() => model.close());
  g.watch(model);
  const port = Number(new URL(model.url).port);
  const spawned = spawnClaude(g, model.url, "Uppercase two");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  assert.match(
    spawned.json.summary.join("\n"),
    /network: its model API and sandbox\.allow only, through Docket's proxy/,
  );
  await g.until(
    "w1 ready with v1",
    () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready",
    180_000,
  );

  const shown = await g.until("the API requests on w1's record", () => {
    const s = g.run("show", "w1", "--json").json;
    return s.network.destinations.some((d: any) => d.port === port && d.requests >= 2) ? s : undefined;
  });
  assert.equal(shown.contained, true);
  assert.equal(shown.network.mode, "allow");
  assert.deepEqual(shown.network.allowed, [`127.0.0.1:${port}`]);
  const api = shown.network.destinations.find((d: any) => d.host === "127.0.0.1" && d.port === port);
  assert.equal(api.allowed, true);
  assert.ok(api.bytesUp > 0 && api.bytesDown > 0);
  // The card says it too: the CLI card, its --json, and the web card with the list.
  assert.match(g.run("verdict", "w1").stdout, /network: allow \(127\.0\.0\.1:\d+\) · \d+ requests/);
  const verdict = g.run("verdict", "w1", "--json");
  assert.equal(verdict.json?.network?.mode, "allow", verdict.stdout + verdict.stderr);
  const web = await webServer(t, { home: g.home, project: g.repo } as never);
  const login = await fetch(web.login, { redirect: "manual" });
  const cookie = String(login.headers.get("set-cookie")).split(";")[0]!;
  const html = await (await fetch(`${web.origin}/card/w1`, { headers: { cookie } })).text();
  assert.match(html, /class="network-line">network: allow \(127\.0\.0\.1:\d+\)/);
  assert.match(html, new RegExp(`<li class="egress-allowed">allowed 127\\.0\\.0\\.1:${port} ×\\d+`));
});

test('network "none": a Claude Code worker is refused by name before it starts; show and its card say why', {
  timeout: 120_000,
}, async (t) => {
  const g = agentGround(t);
  Object.assign(g.env, AS_CONFIGURED);
  g.configure({ sandbox: { mode: "required", network: "none" }, worker: { unattended: true } });
  const model = await startFakeAnthropic([{ text: "never asked" }]);
  t.after(() => model.close());
  const spawned = spawnClaude(g, model.url, "Uppercase two");
  assert.notEqual(spawned.code, 0);
  assert.equal(spawned.json.error.code, "network-none-model-api");
  assert.match(
    spawned.json.error.message,
    /claude needs its model API at 127\.0\.0\.1:\d+, and sandbox\.network is "none"/,
  );
  assert.equal(model.requests.length, 0, "nothing reached the model");
  const shown = g.run("show", "w1", "--json").json;
  assert.equal(shown.state, "failed");
  assert.match(shown.lastError, /sandbox\.network is "none"/);
  assert.match(g.run("show", "w1").stdout, /last error: .*sandbox\.network is "none"/);
});
