// At most once across a crash: a sender SIGKILLed after its claim, while its notify.command sink runs, is never
// followed by a second send of the same events; the next sender sends only what came after, once.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { wait } from "../../../src/engine/protocol/protocol.js";
import { cliEnv, DOCKET_BIN, docketAsync } from "../../support/docket-cli.js";
import { reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { fileOnce, waitFor } from "../../support/wait.js";

test("a sender killed -9 mid-send leaves its claimed events sent once; the next sender sends only the new ones", {
  timeout: 60_000,
}, async (t) => {
  const g = reviewGround(t);
  const log = join(g.home, "received.ndjson");
  const hang = join(g.home, "hang");
  const hung = join(g.home, "hung.pid");
  // The sink records what it got, then (while the hang file exists) says its pid and never exits.
  const sink = join(g.home, "sink.mjs");
  writeFileSync(
    sink,
    [
      `import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";`,
      `appendFileSync(${JSON.stringify(log)}, readFileSync(0));`,
      `if (existsSync(${JSON.stringify(hang)})) { writeFileSync(${JSON.stringify(hung)}, String(process.pid)); setInterval(() => {}, 1000); }`,
    ].join("\n"),
  );
  writeFileSync(
    join(g.home, "config.json"),
    JSON.stringify({ notify: { command: [process.execPath, sink], batchSeconds: 0 } }),
  );
  writeFileSync(hang, "");
  const env = cliEnv({ DOCKET_HOME: g.home });
  const w1 = reviewWorker(t, g);
  const w2 = reviewWorker(t, g);
  wait(g.ctx, w1, { question: "first?" });

  const first = spawn(process.execPath, [DOCKET_BIN, "attention", "--json"], { env, cwd: g.project, stdio: "ignore" });
  const firstExit = new Promise<NodeJS.Signals | null>((done) => first.on("exit", (_code, signal) => done(signal)));
  const sinkPid = Number(
    await waitFor(
      "the first sender's sink running",
      fileOnce(hung, (pid) => pid !== ""),
      20_000,
      50,
    ),
  );
  t.after(() => {
    try {
      process.kill(sinkPid, "SIGKILL");
    } catch {
      // already gone: killed below
    }
  });
  first.kill("SIGKILL");
  assert.equal(await firstExit, "SIGKILL");
  process.kill(sinkPid, "SIGKILL");
  rmSync(hang);

  const claimed = g.ctx.db
    .prepare("SELECT sent_at, sent_by FROM notifications WHERE kind = 'question' AND worker = ?")
    .get(w1.worker) as { sent_at: string | null; sent_by: string };
  assert.ok(claimed.sent_at, "the claim was committed before the sink ran");
  assert.equal(claimed.sent_by, `cli:${first.pid}`, "a claim whose sender died says who claimed it and no sink result");

  wait(g.ctx, w2, { question: "second?" });
  for (let i = 0; i < 2; i++) {
    const r = await docketAsync({ env, cwd: g.project }, "attention", "--json");
    assert.equal(r.code, 0, r.stderr);
  }
  const events = readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { worker: string; text: string });
  assert.deepEqual(
    events.map((e) => [e.worker, e.text]),
    [
      [w1.worker, "first?"],
      [w2.worker, "second?"],
    ],
  );
});
