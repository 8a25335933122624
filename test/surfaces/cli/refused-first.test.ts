// A command that will be refused says so before it records or asks anything: a refused `use --implement` records no
// decision (however often it is retried), and `promote` onto a checkout its patch no longer fits refuses before it asks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { done } from "../../../src/engine/protocol/protocol.js";
import { jsonOf } from "../../support/docket-cli.js";
import {
  humanCli,
  appWith,
  decisionCount,
  gitStatus,
  publish,
  reviewGround,
  reviewWorker,
} from "../../support/review-fixture.js";

const PLAN = ["Goal: greet", "", "Steps:", "1. Write the greeting", "   files: README.md"].join("\n");

test("a refused use --implement records no decision, on the first try or the third", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  done(
    g.ctx,
    { worker: w.worker, generation: w.generation, runToken: w.runToken },
    { callId: "plan-1", body: PLAN, outcome: "proposal", summary: "a plan" },
  );
  const run = humanCli(t, g);
  jsonOf(run("approve", w.worker, "--json"));
  jsonOf(run("item", "add", "held elsewhere", "--json"));
  const holder = reviewWorker(t, g);
  jsonOf(run("dispatch", holder.worker, "t1", "--json"));
  const decisions = decisionCount(g.ctx);
  const cases: [string[], string][] = [
    [["--item", "t9"], "item-not-found"],
    [["--item", "t1"], "item-already-bound"],
    [["--thinking", "sideways"], "spawn-policy"],
  ];
  for (const [flags, code] of cases) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const r = jsonOf(
        run("use", w.worker, "--implement", "--agent", "command", "--cmd", "true", "--yes", ...flags, "--json"),
        1,
      );
      assert.equal(r.error.code, code, `${flags.join(" ")} (attempt ${attempt}): ${JSON.stringify(r.error)}`);
      assert.doesNotMatch(r.error.message, /was recorded/, "a refusal, not a recorded use whose worker never started");
    }
  }
  assert.equal(decisionCount(g.ctx), decisions, "no use decision was recorded");
  assert.deepEqual(
    jsonOf(run("log", "--json")).decisions.map((d: any) => d.verb),
    ["approve"],
  );
});

test("promote onto a checkout that changed the same lines refuses as not applying before it asks to confirm", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 7: "seven" }) });
  const run = humanCli(t, g);
  jsonOf(run("approve", w.worker, "--json"));
  writeFileSync(join(g.project, "src/app.txt"), appWith({ 7: "parent seven" }));
  const status = gitStatus(g.project);
  for (const flags of [[], ["--approve"]]) {
    const r = jsonOf(run("promote", w.worker, ...flags, "--json"), 1).error;
    assert.equal(r.code, "patch-does-not-apply", JSON.stringify(r));
    assert.match(r.message, /does not apply to .*src\/app\.txt/);
  }
  const text = run("promote", w.worker);
  assert.equal(text.code, 1);
  assert.doesNotMatch(text.stderr, /confirm/, "nothing asks for a confirmation the patch could never use");
  assert.equal(gitStatus(g.project), status);
  assert.deepEqual(
    jsonOf(run("log", "--json")).decisions.map((d: any) => d.verb),
    ["approve"],
  );
});
