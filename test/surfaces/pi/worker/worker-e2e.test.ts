// End to end with the real pi CLI and a scripted model, in real tmux on a private socket: spawn → heartbeat →
// tell → delivered → read → respawn → the old generation is refused and the new one reads its messages.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { WORKER_TOOLS } from "../../../support/protocol-worker.js";
import { assertExit, cliEnv, docket, jsonOf } from "../../../support/docket-cli.js";
import { gitRepo } from "../../../support/git.js";
import { launchEnvOf } from "../../../support/launch-env.js";
import { piFaux } from "../../../support/pi-faux.js";
import { tempDir } from "../../../support/temp.js";
import { tmuxServer } from "../../../support/tmux.js";
import { waitFor } from "../../../support/wait.js";

const SLOW = 90_000; // pi starts in 1-2 s alone; under a loaded CI machine much slower

test("a real pi worker heartbeats, reads what it is told, and is fenced after respawn", {
  timeout: 300_000,
}, async (t) => {
  const faux = piFaux(t, [
    { toolCall: { name: "read", arguments: { path: "a.txt" } } },
    { text: "I have read my task and wait for instructions." },
    { text: "Understood your message." },
    { text: "Noted." },
  ]);
  const server = tmuxServer(t);
  const repo = gitRepo(tempDir(t, "docket-repo-"), { "a.txt": "one\n" });
  const env = cliEnv({ ...faux.vars, DOCKET_TMUX_SOCKET: server.socket });
  const run = (...args: string[]) => docket({ env, cwd: repo }, ...args);
  const show = () => jsonOf(run("show", "w1", "--json"));
  const db = () => new Database(join(faux.home, "ledger.sqlite"), { readonly: true });
  const row = (sql: string, ...params: unknown[]) => {
    const d = db();
    try {
      return d.prepare(sql).get(...params) as any;
    } finally {
      d.close();
    }
  };

  const spawned = run("spawn", "--as", "scout", "--json", "look", "around");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  assert.deepEqual(spawned.json.execution, {
    model: "faux/faux-1",
    thinking: "off",
    context: "fresh",
    workspace: "shared",
  });
  assert.ok(
    spawned.json.summary.some((l: string) => /Model: faux\/faux-1/.test(l)),
    spawned.json.summary.join("\n"),
  );

  const first = await waitFor("the first heartbeat", () => (show().heartbeatAt ? show() : undefined), SLOW);
  assert.equal(first.modelInEffect, "faux/faux-1");
  assert.equal(first.thinkingInEffect, "off");
  await waitFor("the first turn to end (idle)", () => show().persistedState === "idle", SLOW);
  const firstCall = JSON.parse(readFileSync(faux.log, "utf8").split("\n")[0]!);
  assert.match(firstCall.lastUserText, /^You are Docket worker w1\. Your task is in .*task\.md/);
  assert.deepEqual(firstCall.tools.filter((n: string) => n.startsWith("docket_")).sort(), WORKER_TOOLS);
  assert.ok(!firstCall.tools.some((n: string) => /spawn/.test(n)), "a worker has no tool that starts workers");

  const events = readFileSync(join(faux.home, "fleet", "w1", "events.ndjson"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    events.filter((e) => e.tool === "read").map((e) => e.type),
    ["tool_start", "tool_end"],
    "tool activity is logged",
  );

  const told = run("tell", "w1", "please confirm\nthe second line too", "--json");
  assert.deepEqual(jsonOf(told), { message: "m1", delivery: "queued" });
  await waitFor("m1 read", () => show().messages.find((m: any) => m.id === "m1")?.delivery === "read", SLOW);
  const calls = readFileSync(faux.log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(
    calls[2].lastUserText,
    "[docket · from the human]\nplease confirm\nthe second line too",
    "one message, multi-line, framed once",
  );
  const m1 = row("SELECT delivered_generation, delivered_at, read_at FROM messages WHERE id = 'm1'");
  assert.equal(m1.delivered_generation, 1);
  assert.ok(m1.delivered_at <= m1.read_at);

  const g1 = launchEnvOf(faux.home, "w1").DOCKET_RUN_TOKEN!;
  assert.notEqual(
    row("SELECT run_token_hash FROM workers WHERE id = 'w1'").run_token_hash,
    g1,
    "the ledger keeps only the token's hash",
  );
  const respawned = run("respawn", "w1", "--json");
  assert.deepEqual(jsonOf(respawned), { worker: "w1", generation: 2 });
  const stale = docket(
    { env: { ...env, DOCKET_WORKER_ID: "w1", DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: g1 }, cwd: repo },
    "worker",
    "heartbeat",
    "--json",
  );
  assertExit(stale, 1);
  assert.equal(stale.json.error.code, "generation-replaced");
  assert.match(stale.json.error.message, /this process was replaced/);

  const told2 = run("tell", "w1", "--after", "welcome back", "--json");
  assert.equal(jsonOf(told2).delivery, "queued");
  await waitFor(
    "generation 2's heartbeat",
    () => row("SELECT heartbeat_at FROM workers WHERE id = 'w1'").heartbeat_at,
    SLOW,
  );
  await waitFor(
    "m2 read by generation 2",
    () => show().messages.find((m: any) => m.id === "m2")?.delivery === "read",
    SLOW,
  );
  assert.equal(row("SELECT delivered_generation FROM messages WHERE id = 'm2'").delivered_generation, 2);
  const after = show();
  assert.equal(after.generation, 2);
  assert.equal(after.liveness, "live");
  assert.deepEqual(
    after.launches.map((l: any) => l.generation),
    [1, 2],
  );
});
