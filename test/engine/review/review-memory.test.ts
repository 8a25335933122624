// Reading a review over the in-memory git, with no git process: the queue, the card's warnings about overlapping peers
// and a moved parent, the hidden context lines read from the base, and a worker that kept editing after its version.

import { test } from "node:test";
import assert from "node:assert/strict";
import { frozenContext } from "../../../src/engine/review/diff-context.js";
import { approve } from "../../../src/engine/review/judge.js";
import { promote } from "../../../src/engine/review/promote.js";
import { previewPromotion } from "../../../src/engine/review/promote-preview.js";
import { verdictCard, verdictQueue } from "../../../src/engine/review/verdict.js";
import { codeOf } from "../../support/errors.js";
import { memoryWorker, publishMemory, withoutGit } from "../../support/memory-review.js";
import { appWith } from "../../support/review-fixture.js";

test("two workers on one file: the queue lists both, the cards warn, the second names the promotion", (t) => {
  const g = withoutGit(t, (g) => {
    const a = memoryWorker(g);
    const b = memoryWorker(g);
    publishMemory(g, a, { "src/app.txt": appWith({ 10: "a ten" }) });
    publishMemory(g, b, { "src/app.txt": appWith({ 10: "b ten" }), "README.md": "hello b\n" });
    assert.deepEqual(
      verdictQueue(g.ctx)
        .map((c) => c.worker)
        .sort(),
      [a.worker, b.worker].sort(),
    );
    const card = verdictCard(g.ctx, a.worker);
    assert.deepEqual(
      card.warnings.map((x) => x.kind),
      ["overlap", "combine"],
    );
    assert.match(card.warnings[0]!.text, new RegExp(`^contested ${b.worker}: src/app\\.txt`));
    assert.match(card.warnings[1]!.text, /cannot combine: Combine \(merge-tree\) is not in the in-memory git/);
    approve(g.ctx, { target: a.worker });
    assert.throws(() => promote(g.ctx, { target: a.worker }), codeOf("promotion-needs-confirmation", /contested/));
    const r = promote(g.ctx, { target: a.worker, yes: true });
    const other = verdictCard(g.ctx, b.worker);
    assert.deepEqual(
      other.warnings.map((x) => x.kind),
      ["overlap", "parent-moved"],
    );
    assert.match(other.warnings[0]!.text, new RegExp(`already promoted \\(${r.decision.id}\\)`));
    const preview = previewPromotion(g.ctx, { target: b.worker, approve: true });
    assert.equal(preview.needsConfirmation, true);
  });
  assert.ok(g.git.calls.includes("parentChangesForEach"), "the queue asked the parent through ctx.git");
});

test("hidden context lines come from the worker's base in memory, checked against the patch's blob id", (t) => {
  const g = withoutGit(t, (g) => {
    const w = memoryWorker(g);
    const v1 = publishMemory(g, w, { "src/app.txt": appWith({ 2: "two" }) });
    g.git.repo.tree.set("src/app.txt", appWith({ 30: "parent moved on" }));
    g.git.commit();
    const tail = frozenContext(g.ctx, { ref: v1.ref, file: 0, gap: 0 });
    assert.equal(tail.lines.length, 35);
    assert.deepEqual(tail.lines[0], { oldNo: 6, newNo: 6, text: "line 6" });
    assert.deepEqual(tail.lines.at(-1), { oldNo: 40, newNo: 40, text: "line 40" }, "from the base");
    const wrong = g.ctx.git.readBlobAt(g.project, w.base, "src/app.txt", "0123456");
    assert.equal(wrong.ok, false, "a blob that is not the one the patch names is never shown");
  });
  assert.ok(g.git.calls.includes("readBlobAt"));
});

test("a worker that kept editing after its version keeps those edits when the version is promoted", (t) => {
  withoutGit(t, (g) => {
    const w = memoryWorker(g);
    publishMemory(g, w, { "src/app.txt": appWith({ 3: "three" }) });
    approve(g.ctx, { target: w.worker });
    g.git.workspace(w.workspace).files.set("src/other.txt", "alpha\nBETA (later edit)\ngamma\n");
    const r = promote(g.ctx, { target: w.worker });
    assert.equal(r.workspace, "kept-later-edits");
    assert.equal(g.git.workspace(w.workspace).files.get("src/other.txt"), "alpha\nBETA (later edit)\ngamma\n");
    assert.equal(g.git.repo.tree.get("src/app.txt"), appWith({ 3: "three" }));
    assert.equal(g.git.repo.tree.get("src/other.txt"), "alpha\nbeta\ngamma\n", "the later edit was never frozen");
  });
});

test("the parent's uncommitted edits are in a workspace's base; a version without changes has none to promote", (t) => {
  withoutGit(t, (g) => {
    g.git.repo.tree.set("src/other.txt", "alpha\nbeta (uncommitted)\ngamma\n");
    const w = memoryWorker(g);
    assert.equal(g.git.workspace(w.workspace).files.get("src/other.txt"), "alpha\nbeta (uncommitted)\ngamma\n");
    publishMemory(g, w, {});
    approve(g.ctx, { target: w.worker });
    assert.throws(() => promote(g.ctx, { target: w.worker }), codeOf("nothing-to-promote"));
  });
});
