// What the review page reads and how its actions are bound: the structured card, the per-worker pulse in verdict order,
// hidden context from the base commit, and refusals when a decision or a version landed after the card was read.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { wait } from "../../../src/engine/protocol/protocol.js";
import { answer, approve, reject, revise } from "../../../src/engine/review/judge.js";
import { promote } from "../../../src/engine/review/promote.js";
import { previewPromotion } from "../../../src/engine/review/promote-preview.js";
import { frozenContext, frozenDiffFiles } from "../../../src/engine/review/diff-context.js";
import { reviewPulse } from "../../../src/engine/review/review-pulse.js";
import { reviewView } from "../../../src/engine/review/review-view.js";
import { verdictQueue } from "../../../src/engine/review/verdict.js";
import { useForParent } from "../../../src/engine/handoff/use.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { readBlobAt } from "../../../src/substrate/git/blob.js";
import {
  appWith,
  askingWorker,
  decisionCount,
  gitStatus,
  identityOf,
  publish,
  reviewGround,
  reviewWorker,
} from "../../support/review-fixture.js";

const codeOf = (code: string, message?: RegExp) => (e: unknown) => {
  assert.equal((e as { code?: string }).code, code, (e as Error).message);
  if (message) assert.match((e as Error).message, message);
  return true;
};

test("the review view carries the card, structured actions on the exact ref beside the CLI strings, and the newest decision", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const fresh = reviewView(g.ctx, w.worker);
  assert.equal(fresh.lastDecision, null);
  assert.deepEqual(
    fresh.card.actions,
    ["approve", "promote --approve", "revise", "reject", "discard"],
    "the CLI strings stay as they were",
  );
  assert.deepEqual(
    fresh.actions.map((a) => [a.verb, a.ref, a.withApproval ?? false, a.cli]),
    [
      ["approve", v1.ref, false, `docket approve ${v1.ref}`],
      ["promote", v1.ref, true, `docket promote ${v1.ref} --approve`],
      ["revise", v1.ref, false, `docket revise ${v1.ref} <note>`],
      ["reject", v1.ref, false, `docket reject ${v1.ref}`],
      ["discard", v1.ref, false, `docket discard ${w.worker}`],
    ],
  );
  assert.deepEqual(
    fresh.files.map((f) => [f.path, f.additions, f.deletions]),
    [["src/app.txt", 1, 1]],
  );
  const decided = approve(g.ctx, { target: w.worker }).decision;
  const after = reviewView(g.ctx, v1.ref);
  assert.equal(after.lastDecision, decided.id);
  assert.deepEqual(
    after.history.map((d) => d.id),
    [decided.id],
  );
  assert.ok(
    after.actions.some((a) => a.verb === "use" && a.mode === "parent" && a.cli === `docket use ${v1.ref} --parent`),
  );
  publish(g, w, { "src/app.txt": appWith({ 2: "two", 3: "three" }) });
  const older = reviewView(g.ctx, v1.ref);
  assert.deepEqual(
    [older.isCurrent, older.current?.version, older.actions],
    [false, 2, []],
    "an older version is shown without actions",
  );
});

test("an action bound to a decision the card did not show is refused and changes nothing, through every verb", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 4: "four" }) });
  const seen = reviewView(g.ctx, w.worker).lastDecision;
  const landed = reject(g.ctx, { target: w.worker, note: "another tab" }).decision.id;
  const before = decisionCount(g.ctx);
  const status = gitStatus(g.project);
  const stale = codeOf(
    "decision-landed",
    new RegExp(
      `${w.worker}'s newest decision is ${landed} \\(reject ${v1.ref}, human\\), not none as on the card you acted on; nothing changed`,
    ),
  );
  const bound = { target: w.worker, expectVersion: 1, expectDecision: seen };
  assert.throws(() => approve(g.ctx, bound), stale);
  assert.throws(() => revise(g.ctx, { ...bound, note: "change it" }), stale);
  assert.throws(() => promote(g.ctx, { ...bound, approve: true, yes: true }), stale);
  assert.throws(
    () => useForParent(g.ctx, { target: v1.ref, expectDecision: seen }),
    (e) => (e as { code: string }).code === "not-approved" || stale(e),
  );
  assert.equal(decisionCount(g.ctx), before);
  assert.equal(gitStatus(g.project), status, "a refused promotion touched no file");
  assert.equal(
    approve(g.ctx, { ...bound, expectDecision: landed }).decision.verb,
    "approve",
    "bound to the decision it saw, the action goes through",
  );
});

test("an answer bound to an older decision is refused and the question stays open", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const who = identityOf(w);
  publish(g, w, { "src/app.txt": appWith({ 5: "five" }) });
  wait(g.ctx, who, { question: "Which table?", options: ["users", "accounts"] });
  const seen = reviewView(g.ctx, w.worker).lastDecision;
  approve(g.ctx, { target: w.worker });
  assert.throws(
    () => answer(g.ctx, { worker: w.worker, text: "users", expectDecision: seen }),
    codeOf("decision-landed"),
  );
  assert.equal(reviewView(g.ctx, w.worker).card.detail.questions.length, 1);
});

test("the pulse ranks workers exactly as the verdict queue orders them: questions, failures, then ready", (t) => {
  const g = reviewGround(t);
  const ready = reviewWorker(t, g);
  publish(g, ready, { "src/app.txt": appWith({ 6: "six" }) });
  const asking = askingWorker(t, g, { question: "Go on?" });
  const failed = reviewWorker(t, g);
  g.ctx.commands.run("test.fail", {}, (tx) => updateWorker(tx, failed.worker, { state: "failed" }));
  const judged = reviewWorker(t, g);
  publish(g, judged, { "src/other.txt": "alpha\nb\ngamma\n" });
  approve(g.ctx, { target: judged.worker });
  const pulse = reviewPulse(g.ctx);
  assert.deepEqual(
    pulse.queue.map((q) => [q.worker, q.rank]),
    [
      [asking.worker, 0],
      [failed.worker, 1],
      [ready.worker, 2],
    ],
  );
  assert.deepEqual(
    pulse.queue.map((q) => q.worker),
    verdictQueue(g.ctx).map((c) => c.worker),
  );
  assert.equal(pulse.workers.find((p) => p.worker === judged.worker)!.rank, null);
});

test("hidden context comes from the worker's base commit, checked against the blob id the patch names", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const { files } = frozenDiffFiles(g.ctx, v1.ref);
  const tail = frozenContext(g.ctx, { ref: v1.ref, file: 0, gap: 0 });
  assert.equal(tail.lines.length, 35);
  assert.deepEqual(tail.lines[0], { oldNo: 6, newNo: 6, text: "line 6" });
  assert.deepEqual(tail.lines.at(-1), { oldNo: 40, newNo: 40, text: "line 40" });
  const part = frozenContext(g.ctx, { ref: v1.ref, file: 0, gap: 0, from: 30, limit: 5 });
  assert.deepEqual([part.lines.map((l) => l.oldNo), part.rest], [[30, 31, 32, 33, 34], 6]);
  assert.throws(() => frozenContext(g.ctx, { ref: v1.ref, file: 0, gap: 0, from: 2 }), codeOf("bad-context-range"));
  assert.throws(() => frozenContext(g.ctx, { ref: v1.ref, file: 3, gap: 0 }), codeOf("no-such-file"));
  const wrong = readBlobAt(g.project, w.base, "src/app.txt", "0123456");
  assert.equal(wrong.ok, false, "a blob that is not the one the patch names is never shown");
  assert.equal(files[0]!.oldBlob!.length >= 7, true);
});

test("the promotion preview shows the git apply --check result and the warnings before anything is applied", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 7: "seven" }) });
  mkdirSync(join(g.project, "src"), { recursive: true });
  writeFileSync(join(g.project, "src/app.txt"), appWith({ 7: "parent seven" }));
  const status = gitStatus(g.project);
  const p = previewPromotion(g.ctx, { target: w.worker, approve: true });
  assert.equal(p.check.ok, false);
  assert.deepEqual([p.needsConfirmation, p.warnings.map((x) => x.kind)], [true, ["parent-moved"]]);
  assert.deepEqual(p.files, ["src/app.txt"]);
  assert.equal(gitStatus(g.project), status);
});
