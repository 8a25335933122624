// `docket web` from the terminal: one server per project started detached and found again, its address in
// `docket verdict`'s text (never in its --json), stopped on request; refused off loopback and for a worker process.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { identityEnv } from "../../support/protocol-worker.js";
import { appWith, humanCli, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import type { ReviewGround } from "../../support/review-fixture.js";
import { tmuxServer } from "../../support/tmux.js";

type T = { after(fn: () => void): void };

function cli(t: T, g: ReviewGround, extra: Record<string, string> = {}) {
  return humanCli(t, g, { DOCKET_TMUX_SOCKET: tmuxServer(t).socket, ...extra });
}

test("web --detach starts one server for the project, a second call finds it, verdict shows the card address, --stop ends it", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const run = cli(t, g);
  const contract = run("verdict", w.worker, "--json");
  const started = run("web", "--detach", "--json");
  t.after(() => {
    try {
      process.kill(started.json.pid, "SIGTERM"); // temp-dir hooks may run first, so the pid is the handle
    } catch {
      // stopped by the test itself
    }
  });
  assert.equal(started.code, 0, started.stderr);
  assert.deepEqual(Object.keys(started.json).sort(), ["pid", "projectRoot", "started", "url"]);
  assert.equal(started.json.started, true);
  const url = new URL(started.json.url);
  assert.equal(url.hostname, "127.0.0.1");
  assert.match(url.searchParams.get("k") ?? "", /^[A-Za-z0-9_-]{43}$/, "a fresh 256-bit secret in the address");
  const records = readdirSync(join(g.home, "web")).filter((f) => f.endsWith(".json"));
  assert.equal(records.length, 1);
  assert.equal(
    statSync(join(g.home, "web", records[0]!)).mode & 0o777,
    0o600,
    "the record holding the secret is private",
  );
  assert.equal(statSync(join(g.home, "web")).mode & 0o777, 0o700);

  const again = run("web", "--json");
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(
    [again.json.started, again.json.url, again.json.pid],
    [false, started.json.url, started.json.pid],
    "found, not started twice",
  );
  const text = run("web");
  assert.match(
    text.stdout,
    /review page already running for .* \(pid \d+\)\n {2}open: http:\/\/127\.0\.0\.1:\d+\/\?k=/,
  );

  const card = run("verdict", w.worker);
  assert.ok(card.stdout.includes(`  in the browser: ${url.origin}/card/${w.worker}/v/1\n`), card.stdout);
  assert.doesNotMatch(card.stdout, /k=/, "the card address carries no secret");
  assert.equal(
    run("verdict", w.worker, "--json").stdout,
    contract.stdout,
    "--json is byte for byte what it was without a server",
  );
  assert.equal(v1.version, 1);

  const page = await fetch(`${url.origin}/card/${w.worker}`);
  assert.equal(page.status, 401, "the card address alone does not sign anyone in");

  const stopped = run("web", "--stop", "--json");
  assert.deepEqual(stopped.json, { stopped: true, pid: started.json.pid });
  assert.equal(existsSync(join(g.home, "web", records[0]!)), false);
  await assert.rejects(fetch(url.origin), "nothing listens any more");
  assert.doesNotMatch(run("verdict", w.worker).stdout, /in the browser/);
});

test("web refuses a non-loopback host and a process carrying a worker identity, and starts nothing", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const run = cli(t, g);
  const wide = run("web", "--detach", "--host", "0.0.0.0", "--json");
  assert.equal(wide.code, 2);
  assert.deepEqual(wide.json.error, {
    code: "web-not-loopback",
    message: '--host "0.0.0.0" is not a loopback address; the review page listens on 127.0.0.1, ::1 or localhost only',
    hint: "drop --host, or pass --host 127.0.0.1",
  });
  const asWorker = cli(t, g, identityEnv(w))("web", "--detach", "--json");
  assert.equal(asWorker.code, 1);
  assert.equal(asWorker.json.error.code, "worker-cannot-judge");
  assert.match(
    asWorker.json.error.message,
    new RegExp(`runs as worker ${w.worker} \\(DOCKET_WORKER_ID\\); the review page is the human's`),
  );
  assert.equal(existsSync(join(g.home, "web")), false, "no server record was written");
});
