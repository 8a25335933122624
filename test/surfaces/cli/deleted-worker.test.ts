// Deleting a worker keeps what it published and owes nothing: its versions read by exact ref afterwards (report, diff,
// verdict), and the items it still owed a report on are said, then released back open with the reason recorded.

import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonOf } from "../../support/docket-cli.js";
import { appWith, humanCli, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";

test("a deleted worker's versions stay readable by exact ref: report, diff and verdict; judging one is a named refusal", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const v2 = publish(g, w, { "src/app.txt": appWith({ 3: "three", 9: "nine" }) });
  const run = humanCli(t, g);
  const before = jsonOf(run("report", v1.ref, "--json"));
  jsonOf(run("delete", w.worker, "--yes", "--force", "--json"));
  for (const ref of [v1.ref, v2.ref, `${w.worker}:v1`]) {
    const report = jsonOf(run("report", ref, "--json"));
    assert.equal(report.worker, w.worker, ref);
    const text = run("report", ref);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^state: {4}deleted \(was /m, `${ref}: the report says the worker is gone`);
    const diff = jsonOf(run("diff", ref, "--json"));
    assert.match(diff.patch, /\+three/, ref);
    const card = jsonOf(run("verdict", ref, "--json"));
    assert.equal(card.worker ?? card.card?.worker ?? w.worker, w.worker);
  }
  assert.deepEqual(jsonOf(run("report", v1.ref, "--json")), before, "the same frozen version, byte for byte");
  assert.equal(
    jsonOf(run("report", w.worker, "--json"), 1).error.code,
    "worker-not-found",
    "a bare id names no worker",
  );
  const approve = jsonOf(run("approve", v2.ref, "--json"), 1).error;
  assert.equal(approve.code, "worker-deleted");
  assert.match(approve.message, /was deleted; .* stays readable but is not judged/);
  assert.deepEqual(jsonOf(run("log", "--json")).decisions, [], "no decision was recorded");
});

test("deleting a worker that owes item reports says so and releases each item back open, nothing left owed", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const run = humanCli(t, g);
  jsonOf(run("item", "add", "first", "--json"));
  jsonOf(run("item", "add", "second", "--json"));
  jsonOf(run("dispatch", w.worker, "t1", "t2", "--json"));
  assert.equal(jsonOf(run("obligations", "--json")).obligations.length, 2);
  const text = run("delete", w.worker, "--yes");
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /released t1, t2 back \(open, owed by nobody\)/);
  assert.deepEqual(jsonOf(run("obligations", "--json")).obligations, [], "nothing is owed by a deleted worker");
  const all = jsonOf(run("obligations", "--all", "--json")).obligations;
  assert.deepEqual(
    all.map((o: any) => [o.item, o.state, o.disposition]),
    [
      ["t1", "resolved", `released: ${w.worker} was deleted before it reported`],
      ["t2", "resolved", `released: ${w.worker} was deleted before it reported`],
    ],
  );
  const shown = jsonOf(run("item", "show", "t1", "--json"));
  assert.equal(shown.state, "open");
  assert.ok(
    shown.bindings.every((b: any) => b.state === "resolved"),
    JSON.stringify(shown.bindings),
  );
  const w2 = reviewWorker(t, g);
  jsonOf(run("dispatch", w2.worker, "t1", "--json")); // free for another worker
});

test("a delete that needs confirmation names the items it would release, and releases nothing", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const run = humanCli(t, g);
  jsonOf(run("item", "add", "first", "--json"));
  jsonOf(run("dispatch", w.worker, "t1", "--json"));
  const refused = jsonOf(run("delete", w.worker, "--json"), 1).error;
  assert.equal(refused.code, "confirm-required");
  assert.match(refused.message, /\(it owes a report on t1: that item is released back open, owed by nobody\)/);
  assert.equal(jsonOf(run("obligations", "--json")).obligations.length, 1, "a refused delete releases nothing");
});
