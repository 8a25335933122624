// Review and promotion run whole over the in-memory git: publish, approve, promote into the parent's tree, the refusals
// (unapproved, stale, conflicting), revise and discard — and the counting git on PATH logs not one git process.

import { test } from "node:test";
import assert from "node:assert/strict";
import { approve, discard, revise } from "../../../src/engine/review/judge.js";
import { planPromotion, promote } from "../../../src/engine/review/promote.js";
import { reviewView } from "../../../src/engine/review/review-view.js";
import { verdictCard, verdictQueue } from "../../../src/engine/review/verdict.js";
import { systemGit } from "../../../src/substrate/git/port.js";
import { codeOf } from "../../support/errors.js";
import { countingGit } from "../../support/git-counter.js";
import { memoryGround, memoryWorker, publishMemory, withoutGit } from "../../support/memory-review.js";
import type { MemoryGround } from "../../support/memory-review.js";
import type { ProtocolWorker } from "../../support/protocol-worker.js";
import { appWith, decisionCount, PROJECT_FILES } from "../../support/review-fixture.js";

const parentFile = (g: MemoryGround, path: string) => g.git.repo.tree.get(path);
const liveFiles = (g: MemoryGround, w: ProtocolWorker) => Object.fromEntries(g.git.workspace(w.workspace).files);

test("the counting git logs a git process the real port starts, so an empty log means none ran", (t) => {
  const g = memoryGround(t);
  const { calls } = countingGit(t, () => systemGit.projectRootOf(g.project));
  assert.deepEqual(calls, ["rev-parse"]);
});

test("publish, approve and promote land the frozen patch in the parent and reset the workspace, with no git", (t) => {
  const g = withoutGit(t, (g) => {
    const w = memoryWorker(g);
    const edits = { "src/app.txt": appWith({ 3: "three" }), "src/new.txt": "brand new\n", "README.md": null };
    const v1 = publishMemory(g, w, edits);
    const card = verdictCard(g.ctx, w.worker);
    assert.equal(card.deliverable?.ref, v1.ref);
    assert.deepEqual(
      reviewView(g.ctx, w.worker).files.map((f) => [f.path, f.status]),
      [
        ["README.md", "deleted"],
        ["src/app.txt", "modified"],
        ["src/new.txt", "added"],
      ],
    );
    approve(g.ctx, { target: w.worker });
    const r = promote(g.ctx, { target: w.worker });
    assert.deepEqual(r.decision, { id: r.decision.id, verb: "promote", worker: w.worker, deliverable: v1 });
    assert.deepEqual([...r.files].sort(), ["README.md", "src/app.txt", "src/new.txt"]);
    assert.equal(r.workspace, "reset");
    assert.equal(parentFile(g, "src/app.txt"), appWith({ 3: "three" }));
    assert.equal(parentFile(g, "src/new.txt"), "brand new\n");
    assert.equal(parentFile(g, "README.md"), undefined, "the deleted file is gone from the parent");
    assert.deepEqual(liveFiles(g, w), PROJECT_FILES, "the workspace is back at its base");
    assert.throws(() => promote(g.ctx, { target: w.worker }), codeOf("already-promoted"));
  });
  const steps = [
    "createIsolatedWorkspace",
    "captureChangeSet",
    "readFrozenPatch",
    "checkPatch",
    "applyPatch",
    "liveEqualsFrozen",
    "resetWorkspace",
  ] as const;
  for (const step of steps) {
    assert.ok(g.git.calls.includes(step), `the engine reached ${step} through ctx.git`);
  }
});

test("an unapproved version is refused, and so is v2 after v1 was approved; the parent and the ledger stay", (t) => {
  withoutGit(t, (g) => {
    const w = memoryWorker(g);
    publishMemory(g, w, { "src/app.txt": appWith({ 3: "three" }) });
    assert.throws(() => promote(g.ctx, { target: w.worker }), codeOf("not-approved", /is not approved/));
    approve(g.ctx, { target: w.worker });
    publishMemory(g, w, { "src/app.txt": appWith({ 3: "three", 9: "nine" }) });
    const before = decisionCount(g.ctx);
    const refused = codeOf("not-approved", /v1 was approved, but an approval never carries over/);
    assert.throws(() => promote(g.ctx, { target: w.worker }), refused);
    assert.deepEqual(Object.fromEntries(g.git.repo.tree), PROJECT_FILES);
    assert.equal(decisionCount(g.ctx), before);
  });
});

test("stale promotions are refused: an older version by worker id, and a card whose decision has moved on", (t) => {
  withoutGit(t, (g) => {
    const w = memoryWorker(g);
    const v1 = publishMemory(g, w, { "src/other.txt": "alpha\nbeta\ngamma\nv1\n" });
    const { decision } = approve(g.ctx, { target: w.worker });
    publishMemory(g, w, { "src/app.txt": appWith({ 20: "v2" }) });
    assert.throws(() => promote(g.ctx, { target: w.worker, version: 1 }), codeOf("older-version"));
    const stale = codeOf("decision-landed", /not none as on the card/);
    assert.throws(() => promote(g.ctx, { target: v1.ref, expectDecision: null }), stale);
    assert.equal(parentFile(g, "src/other.txt"), PROJECT_FILES["src/other.txt"]);
    const r = promote(g.ctx, { target: v1.ref, expectDecision: decision.id });
    assert.equal(r.workspace, "kept-later-edits", "v2's edits are still in the workspace");
    assert.equal(parentFile(g, "src/other.txt"), "alpha\nbeta\ngamma\nv1\n");
    assert.equal(parentFile(g, "src/app.txt"), appWith({}), "v2's change was never promoted");
  });
});

test("a parent change elsewhere in the file needs confirmation, then both changes stand side by side", (t) => {
  withoutGit(t, (g) => {
    const w = memoryWorker(g);
    publishMemory(g, w, { "src/app.txt": appWith({ 3: "worker three" }) });
    approve(g.ctx, { target: w.worker });
    g.git.repo.tree.set("src/app.txt", appWith({ 30: "parent thirty" }));
    g.git.commit();
    const plan = planPromotion(g.ctx, { target: w.worker });
    assert.equal(plan.needsConfirmation, true);
    assert.deepEqual(
      plan.warnings.map((x) => x.kind),
      ["parent-moved"],
    );
    const unconfirmed = codeOf("promotion-needs-confirmation", /your checkout changed src\/app\.txt/);
    assert.throws(() => promote(g.ctx, { target: w.worker }), unconfirmed);
    promote(g.ctx, { target: w.worker, yes: true });
    assert.equal(parentFile(g, "src/app.txt"), appWith({ 3: "worker three", 30: "parent thirty" }));
  });
});

test("a conflicting parent change is refused even when confirmed, naming the file, and nothing changes", (t) => {
  withoutGit(t, (g) => {
    const w = memoryWorker(g);
    publishMemory(g, w, { "src/app.txt": appWith({ 3: "worker three" }) });
    approve(g.ctx, { target: w.worker });
    g.git.repo.tree.set("src/app.txt", appWith({ 3: "parent three" }));
    const before = decisionCount(g.ctx);
    const conflict = /does not apply to .*: src\/app\.txt \(your checkout's lines around line \d+.*\); nothing changed/;
    for (const yes of [false, true]) // said before any confirmation is asked for
      assert.throws(() => promote(g.ctx, { target: w.worker, yes }), codeOf("patch-does-not-apply", conflict));
    assert.equal(parentFile(g, "src/app.txt"), appWith({ 3: "parent three" }));
    assert.equal(decisionCount(g.ctx), before);
    assert.equal(liveFiles(g, w)["src/app.txt"], appWith({ 3: "worker three" }), "the workspace is untouched");
  });
});

test("a promotion interrupted after its patch landed is recorded on retry without applying it twice", (t) => {
  withoutGit(t, (g) => {
    const w = memoryWorker(g);
    publishMemory(g, w, { "src/other.txt": "alpha\nBETA\ngamma\n" });
    approve(g.ctx, { target: w.worker });
    const patch = verdictCard(g.ctx, w.worker).detail.deliverable!.changeSet!.patch;
    assert.equal(g.git.applyPatch(g.project, patch).ok, true);
    const r = promote(g.ctx, { target: w.worker });
    assert.match(r.notes.join("\n"), /already held exactly the frozen patch/);
    assert.equal(parentFile(g, "src/other.txt"), "alpha\nBETA\ngamma\n");
  });
});

test("revise sends the version back and the next done is v2; discard resets the workspace once confirmed", (t) => {
  withoutGit(t, (g) => {
    const w = memoryWorker(g);
    publishMemory(g, w, { "src/app.txt": appWith({ 2: "two" }) });
    assert.deepEqual(
      verdictQueue(g.ctx).map((c) => c.worker),
      [w.worker],
    );
    revise(g.ctx, { target: w.worker, note: "also handle line 5" });
    assert.deepEqual(
      verdictQueue(g.ctx).map((c) => c.worker),
      [],
      "a revised version waits on its worker",
    );
    assert.equal(publishMemory(g, w, { "src/app.txt": appWith({ 2: "two", 5: "five" }) }).version, 2);
    assert.deepEqual(
      verdictQueue(g.ctx).map((c) => c.worker),
      [w.worker],
    );
    g.git.workspace(w.workspace).files.set("src/other.txt", "live edit\n");
    assert.throws(() => discard(g.ctx, { worker: w.worker }), codeOf("discard-needs-confirmation"));
    assert.equal(g.git.workspace(w.workspace).files.get("src/other.txt"), "live edit\n");
    const d = discard(g.ctx, { worker: w.worker, confirmed: true });
    assert.deepEqual(d.files, ["src/app.txt", "src/other.txt"]);
    assert.deepEqual(liveFiles(g, w), PROJECT_FILES, "back at its base");
    assert.equal(verdictCard(g.ctx, w.worker).deliverable?.version, 2, "the frozen v2 is still reviewable");
  });
});
