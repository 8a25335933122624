// Claim: on real worktrees and frozen versions, `compare` shows every candidate with its stats and records what it
// showed; `choose` then approves exactly that version and records the others as not chosen in one command, stops them,
// and refuses — changing nothing — when the comparison was never shown or a candidate published after it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDocketError } from "../../../src/domain/errors.js";
import { chooseCandidate } from "../../../src/engine/groups/choose.js";
import { compareGroup } from "../../../src/engine/groups/compare.js";
import { promote } from "../../../src/engine/review/promote.js";
import { appWith, decisionCount, publish } from "../../support/review-fixture.js";
import { groupGround } from "../../support/group-fixture.js";

const refused = (code: string, message?: RegExp) => (e: unknown) =>
  isDocketError(e) && e.code === code && (message === undefined || message.test(e.message));

test("compare lists each candidate's version with files, +/−, hunks, tests, files only it touched and the overlap; one still working says so", (t) => {
  const { g, group, workers } = groupGround(t, 3);
  const [w1, w2] = workers;
  publish(g, w1!, { "src/app.txt": appWith({ 2: "two" }), "one.txt": "only w1\n" });
  publish(g, w2!, { "src/app.txt": appWith({ 30: "thirty" }), "two.txt": "only w2\n" });
  const c = compareGroup(g.ctx, group);
  assert.equal(c.group, "b1");
  assert.deepEqual(
    c.candidates.map((k) => [
      k.worker,
      k.ref,
      k.files.length,
      k.additions,
      k.deletions,
      k.hunks,
      k.onlyHere,
      k.working,
    ]),
    [
      ["w1", "worker-deliverable:w1:1", 2, 2, 1, 2, ["one.txt"], false],
      ["w2", "worker-deliverable:w2:1", 2, 2, 1, 2, ["two.txt"], false],
      ["w3", null, 0, 0, 0, 0, [], true],
    ],
  );
  assert.deepEqual(c.candidates[0]!.tests, ["npm test: 3 pass"]);
  assert.deepEqual(c.overlaps, [{ a: "w1", b: "w2", files: ["src/app.txt"] }]);
  assert.equal(
    (g.ctx.db.prepare("SELECT shown FROM worker_groups WHERE id = 'b1'").get() as { shown: string | null }).shown,
    null,
    "a comparison no surface displayed records nothing",
  );
});

test("choose approves the exact version shown, records the others as not chosen, stops them; promote lands its bytes", (t) => {
  const { g, group, workers } = groupGround(t, 3);
  const [w1, w2, w3] = workers;
  publish(g, w1!, { "src/app.txt": appWith({ 2: "two by w1" }) });
  const v2 = publish(g, w2!, { "src/app.txt": appWith({ 2: "two by w2" }) });
  publish(g, w3!, { "src/app.txt": appWith({ 2: "two by w3" }) });
  assert.throws(
    () => chooseCandidate(g.ctx, { ref: v2.ref }),
    refused("comparison-not-shown", /^the comparison of b1 was never shown to you/),
  );
  assert.equal(decisionCount(g.ctx), 0, "a refused choice records nothing");
  compareGroup(g.ctx, group, { surface: "cli" });
  const r = chooseCandidate(g.ctx, { ref: v2.ref, reason: "w2 kept the style" });
  assert.equal(r.chosen.verb, "approve");
  assert.deepEqual(r.chosen.deliverable, v2);
  assert.deepEqual(
    r.notChosen.map((n) => [n.worker, n.ref]),
    [
      ["w1", "worker-deliverable:w1:1"],
      ["w3", "worker-deliverable:w3:1"],
    ],
  );
  assert.deepEqual(r.stopped, ["w1", "w3"]);
  const rows = g.ctx.db
    .prepare("SELECT worker, verb, deliverable_ref, note FROM decisions ORDER BY seq")
    .all() as Record<string, string>[];
  assert.deepEqual(
    rows.map((d) => [d.worker, d.verb, d.deliverable_ref, d.note]),
    [
      ["w2", "approve", "worker-deliverable:w2:1", "chosen in b1"],
      ["w1", "not-chosen", "worker-deliverable:w1:1", "b1: w2 kept the style"],
      ["w3", "not-chosen", "worker-deliverable:w3:1", "b1: w2 kept the style"],
    ],
  );
  const exited = g.ctx.db.prepare("SELECT id, exited, last_error FROM workers ORDER BY seq").all() as {
    id: string;
    exited: number;
    last_error: string | null;
  }[];
  assert.deepEqual(
    exited.map((w) => [w.id, w.exited]),
    [
      ["w1", 1],
      ["w2", 0],
      ["w3", 1],
    ],
  );
  assert.match(exited[0]!.last_error!, /^stopped by Docket: b1 chose worker-deliverable:w2:1/);
  assert.throws(() => chooseCandidate(g.ctx, { ref: "worker-deliverable:w1:1" }), refused("group-already-chosen"));
  assert.throws(
    () => chooseCandidate(g.ctx, { ref: v2.ref, reason: "another reason" }),
    refused("group-already-chosen", /^b1 already has its choice \(worker-deliverable:w2:1\); nothing changed$/),
  );
  // A retry of the same choice is the same command: its stored result, nothing new.
  const before = decisionCount(g.ctx);
  assert.deepEqual(chooseCandidate(g.ctx, { ref: v2.ref, reason: "w2 kept the style" }).chosen, r.chosen);
  assert.equal(decisionCount(g.ctx), before);

  promote(g.ctx, { target: v2.ref, yes: true });
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({ 2: "two by w2" }));
  const after = compareGroup(g.ctx, group);
  assert.deepEqual(
    after.candidates.map((k) => k.judgment),
    ["not-chosen", "chosen", "not-chosen"],
  );
});

test("a candidate that publishes v2 after the comparison was shown makes choose of its v1 refuse, changing nothing", (t) => {
  const { g, group, workers } = groupGround(t, 2);
  const [w1, w2] = workers;
  const v1 = publish(g, w1!, { "src/app.txt": appWith({ 5: "five" }) });
  publish(g, w2!, { "src/app.txt": appWith({ 6: "six" }) });
  compareGroup(g.ctx, group, { surface: "web" });
  publish(g, w1!, { "src/app.txt": appWith({ 5: "five, again" }) });
  assert.throws(
    () => chooseCandidate(g.ctx, { ref: v1.ref }),
    refused(
      "candidate-moved-since-shown",
      /^w1 published worker-deliverable:w1:2 after the comparison of b1 was shown to you \(it showed worker-deliverable:w1:1\); nothing changed$/,
    ),
  );
  assert.equal(decisionCount(g.ctx), 0);
  assert.equal(
    (g.ctx.db.prepare("SELECT chosen_ref FROM worker_groups").get() as { chosen_ref: string | null }).chosen_ref,
    null,
  );
  compareGroup(g.ctx, group, { surface: "web" });
  assert.equal(chooseCandidate(g.ctx, { ref: "w1:v2" }).chosen.deliverable?.ref, "worker-deliverable:w1:2");
});

test("choose refuses a bare worker id and a worker outside any group, naming what to do", (t) => {
  const { g } = groupGround(t, 2);
  assert.throws(() => chooseCandidate(g.ctx, { ref: "w1" }), refused("choose-needs-exact-ref"));
  assert.throws(() => compareGroup(g.ctx, "b9"), refused("unknown-group", /^there is no group b9$/));
  assert.throws(() => compareGroup(g.ctx, "9"), refused("bad-group-id"));
});
