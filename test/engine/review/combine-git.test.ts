// Claim: Combine merges two workers' frozen change sets with real `git merge-tree` — clean, conflicting, binary, rename
// and delete/modify — touching no checkout, index, ref or object of the human's repository; the result is a frozen
// version reviewed and promoted through the one path; conflict markers are never frozen or promoted.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDocketError } from "../../../src/domain/errors.js";
import {
  abortCombine,
  combineChangeSets,
  continueCombine,
  previewCombine,
} from "../../../src/engine/review/combine.js";
import { assertMergeTreeGit } from "../../../src/substrate/git/combine-merge.js";
import { approve } from "../../../src/engine/review/judge.js";
import { promote } from "../../../src/engine/review/promote.js";
import { approvalOf } from "../../../src/engine/review/target.js";
import { verdictCard, verdictQueue } from "../../../src/engine/review/verdict.js";
import { frozenPatchOf } from "../../../src/engine/review/frozen-patch.js";
import { readJournal } from "../../../src/engine/talk/journal.js";
import { checkoutFingerprint, pairGround, publishBoth } from "../../support/combine-fixture.js";
import { git } from "../../support/git.js";
import { appWith, gitStatus, publish, reviewWorker } from "../../support/review-fixture.js";

const APP = appWith({});
const code = (c: string) => (e: unknown) => isDocketError(e) && e.code === c;
const decisions = (g: { ctx: { db: { prepare(s: string): { all(...a: unknown[]): unknown[] } } } }, verb?: string) =>
  g.ctx.db
    .prepare(
      `SELECT verb, worker, deliverable_ref AS ref, option FROM decisions ${verb ? "WHERE verb = ?" : ""} ORDER BY seq`,
    )
    .all(...(verb ? [verb] : [])) as { verb: string; worker: string; ref: string; option: string | null }[];

test("two change sets that merge clean become one frozen combined version; nothing of the human's repository is touched until it is promoted", (t) => {
  const p = pairGround(t, { "src/app.txt": APP, "README.md": "hello\n" });
  publishBoth(
    p,
    { "src/app.txt": appWith({ 3: "three by w1" }) },
    { "src/app.txt": appWith({ 30: "thirty by w2" }), "docs/new.md": "new\n" },
  );
  const before = checkoutFingerprint(p.g.project);

  const card = verdictCard(p.g.ctx, "w1");
  assert.ok(
    !card.actions.some((a) => a.startsWith("combine")),
    "lines 3 and 30 are far apart: the overlap is only same-file, no Combine offer",
  );
  const r = combineChangeSets(p.g.ctx, { sources: ["w2", "w1"] });
  assert.equal(r.outcome, "combined");
  if (r.outcome !== "combined") return;
  assert.equal(r.deliverable.ref, "combined:w1+w2:1", "the lower worker comes first whatever the order named");
  assert.deepEqual(r.files.sort(), ["docs/new.md", "src/app.txt"]);
  assert.equal(r.summary, "merges clean, 2 files");
  assert.deepEqual(
    checkoutFingerprint(p.g.project),
    before,
    "the merge wrote nothing into the human's checkout, index, refs or objects",
  );

  assert.deepEqual(
    decisions(p.g, "combine").map((d) => [d.worker, d.ref, d.option]),
    [
      ["w1", "worker-deliverable:w1:1", "combined:w1+w2:1"],
      ["w2", "worker-deliverable:w2:1", "combined:w1+w2:1"],
    ],
  );
  assert.match(verdictCard(p.g.ctx, "w1").detail.judgment, /^closed as combined into combined:w1\+w2:1/);
  assert.throws(
    () => approve(p.g.ctx, { target: "w1" }),
    code("combined-closed"),
    "a source closed as combined is never approved",
  );
  assert.throws(() => promote(p.g.ctx, { target: "w1", approve: true, yes: true }), code("combined-closed"));
  assert.equal(
    approvalOf(p.g.ctx.db, { id: "worker-deliverable:w1", version: 1, ref: "worker-deliverable:w1:1" }),
    undefined,
  );

  const queue = verdictQueue(p.g.ctx);
  assert.deepEqual(
    queue.map((c) => c.worker),
    ["w1+w2"],
    "the combined version waits for judgment; its sources do not",
  );
  const combined = verdictCard(p.g.ctx, "combined:w1+w2:1");
  assert.deepEqual(Object.keys(combined).sort(), [
    "actions",
    "approved",
    "comments",
    "deliverable",
    "detail",
    "moves",
    "planCoverage",
    "spend",
    "state",
    "warnings",
    "worker",
  ]);
  assert.deepEqual(combined.actions, ["approve", "promote --approve", "reject"]);
  const patch = frozenPatchOf(p.g.ctx, "combined:w1+w2:1").patch;
  assert.match(patch, /\+three by w1/);
  assert.match(patch, /\+thirty by w2/);

  assert.throws(() => promote(p.g.ctx, { target: "combined:w1+w2:1", yes: true }), code("not-approved"));
  approve(p.g.ctx, { target: "combined:w1+w2:1" });
  const promoted = promote(p.g.ctx, { target: "combined:w1+w2:1", yes: true });
  assert.equal(promoted.decision.deliverable?.ref, "combined:w1+w2:1");
  assert.equal(
    readFileSync(join(p.g.project, "src/app.txt"), "utf8"),
    appWith({ 3: "three by w1", 30: "thirty by w2" }),
  );
  assert.equal(readFileSync(join(p.g.project, "docs/new.md"), "utf8"), "new\n");
  const journal = readJournal(p.g.ctx).entries;
  assert.deepEqual(
    journal.map((e) => [e.kind, e.from, e.ref, e.workers]),
    [["promoted", "w1 + w2", "combined:w1+w2:1", ["w1", "w2"]]],
    "the journal credits both workers",
  );
  const view = readFileSync(readJournal(p.g.ctx).file, "utf8");
  assert.match(view, /promoted · from w1 \+ w2/);
  assert.match(view, /^- src\/app\.txt$/m);
  assert.match(promoted.notes.join("\n"), /w1's workspace was reset to its base/);
  assert.throws(() => promote(p.g.ctx, { target: "combined:w1+w2:1", yes: true }), code("already-promoted"));
});

test("a conflict becomes a scratch folder in diff3 form labelled by worker and task; --continue refuses while a marker remains and freezes the resolution", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 5: "five by w1" }) }, { "src/app.txt": appWith({ 5: "five by w2" }) });
  const before = checkoutFingerprint(p.g.project);

  const card = verdictCard(p.g.ctx, "w1");
  assert.ok(
    card.warnings.some(
      (w) => w.kind === "combine" && w.text === "Combine with w2 · change the app · 1 conflict in 1 file",
    ),
    JSON.stringify(card.warnings),
  );
  assert.ok(card.actions.includes("combine w2"));

  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "conflicts");
  if (r.outcome !== "conflicts") return;
  assert.equal(r.summary, "1 conflict in 1 file");
  assert.deepEqual(r.contested, [{ path: "src/app.txt", kind: "content", conflicts: 1 }]);
  const file = join(r.scratch, "files", "src/app.txt");
  const draft = readFileSync(file, "utf8");
  assert.match(
    draft,
    /^<<<<<<< w1 · change the app\nfive by w1\n\|\|\|\|\|\|\| base · what both started from\nline 5\n=======\nfive by w2\n>>>>>>> w2 · change the app$/m,
  );
  assert.ok(existsSync(join(r.scratch, "README.md")));
  assert.deepEqual(
    decisions(p.g, "combine-conflicts").map((d) => d.worker),
    ["w1", "w2"],
    "the outcome is a decision on each source",
  );
  assert.deepEqual(checkoutFingerprint(p.g.project), before);
  assert.throws(() => combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] }), code("combine-pending"));

  writeFileSync(file, draft.replace("=======\nfive by w2\n", "=======\nfive by both\n"));
  const stillMarked = decisions(p.g).length;
  assert.throws(
    () => continueCombine(p.g.ctx),
    (e: unknown) =>
      isDocketError(e) && e.code === "conflict-markers" && /src\/app\.txt \(lines \d+, \d+, \d+\)/.test(e.message),
  );
  assert.equal(decisions(p.g).length, stillMarked, "a refused --continue records nothing");
  assert.equal(existsSync(join(p.g.home, "combined", "w1-w2", "v1.json")), false, "and freezes nothing");

  writeFileSync(file, appWith({ 5: "five by both" }));
  const done = continueCombine(p.g.ctx);
  assert.equal(done.outcome, "combined");
  if (done.outcome !== "combined") return;
  assert.equal(existsSync(r.scratch), false, "the scratch folder is gone once frozen");
  assert.match(frozenPatchOf(p.g.ctx, done.deliverable.ref).patch, /^\+five by both$/m);
  assert.deepEqual(
    decisions(p.g, "combine").map((d) => d.worker),
    ["w1", "w2"],
  );
  approve(p.g.ctx, { target: done.deliverable.ref });
  promote(p.g.ctx, { target: done.deliverable.ref, yes: true });
  assert.equal(readFileSync(join(p.g.project, "src/app.txt"), "utf8"), appWith({ 5: "five by both" }));
});

test("--abort drops the scratch folder and leaves both versions open, recorded as a decision on each", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 9: "w1" }) }, { "src/app.txt": appWith({ 9: "w2" }) });
  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "conflicts");
  const aborted = abortCombine(p.g.ctx);
  assert.deepEqual(
    decisions(p.g, "combine-abort").map((d) => d.worker),
    ["w1", "w2"],
  );
  assert.equal(aborted.decisions.length, 2);
  if (r.outcome === "conflicts") assert.equal(existsSync(r.scratch), false);
  assert.throws(() => abortCombine(p.g.ctx), code("no-combine-pending"));
  assert.throws(() => continueCombine(p.g.ctx), code("no-combine-pending"));
  approve(p.g.ctx, { target: "w1" });
  assert.ok(
    approvalOf(p.g.ctx.db, { id: "worker-deliverable:w1", version: 1, ref: "worker-deliverable:w1:1" }),
    "an aborted combine never closed its sources",
  );
});

test("a binary file both changed is contested: each side is written to copy from, and the copied side is frozen", (t) => {
  const q = pairGround(t, { "src/app.txt": APP, "logo.bin": "\u0000\u0001binary\u0000" });
  const ours = Buffer.from([0, 1, 2, 3, 7, 7, 7]);
  const theirs = Buffer.from([0, 9, 9, 9, 9]);
  writeFileSync(join(q.a.workspace, "logo.bin"), ours);
  publish(q.g, q.a, {});
  writeFileSync(join(q.b.workspace, "logo.bin"), theirs);
  publish(q.g, q.b, {});
  const r = combineChangeSets(q.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "conflicts");
  if (r.outcome !== "conflicts") return;
  assert.deepEqual(
    r.contested.map((c) => [c.path, c.kind]),
    [["logo.bin", "binary"]],
  );
  const placeholder = readFileSync(join(r.scratch, "files", "logo.bin"), "utf8");
  assert.match(placeholder, /^<<<<<<< w1 · change the app \(binary, 7 bytes: sides\/w1\/logo\.bin\)$/m);
  assert.match(placeholder, /^>>>>>>> w2 · change the app \(binary, 5 bytes: sides\/w2\/logo\.bin\)$/m);
  assert.deepEqual(readFileSync(join(r.scratch, "sides", "w2", "logo.bin")), theirs);
  assert.throws(() => continueCombine(q.g.ctx), code("conflict-markers"), "the placeholder itself is unresolved");
  writeFileSync(join(r.scratch, "files", "logo.bin"), readFileSync(join(r.scratch, "sides", "w2", "logo.bin")));
  const done = continueCombine(q.g.ctx);
  assert.equal(done.outcome, "combined");
  if (done.outcome !== "combined") return;
  approve(q.g.ctx, { target: done.deliverable.ref });
  promote(q.g.ctx, { target: done.deliverable.ref, yes: true });
  assert.deepEqual(
    readFileSync(join(q.g.project, "logo.bin")),
    theirs,
    "the binary side the human copied landed byte for byte",
  );
});

test("a rename on one side and an edit on the other merge clean: the edit follows the file to its new name", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  git(p.a.workspace, "mv", "src/app.txt", "src/main.txt");
  publish(p.g, p.a, {});
  publish(p.g, p.b, { "src/app.txt": appWith({ 12: "twelve by w2" }) });
  assert.equal(previewCombine(p.g.ctx, "w1", "w2").text, "merges clean, 2 files");
  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "combined");
  if (r.outcome !== "combined") return;
  approve(p.g.ctx, { target: r.deliverable.ref });
  promote(p.g.ctx, { target: r.deliverable.ref, yes: true });
  assert.equal(existsSync(join(p.g.project, "src/app.txt")), false);
  assert.equal(readFileSync(join(p.g.project, "src/main.txt"), "utf8"), appWith({ 12: "twelve by w2" }));
});

test("a delete on one side and an edit on the other is contested; deleting the scratch file deletes it in the result", (t) => {
  const p = pairGround(t, { "src/app.txt": APP, "src/other.txt": "alpha\nbeta\n" });
  publishBoth(p, { "src/other.txt": null }, { "src/other.txt": "alpha\nBETA\n" });
  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "conflicts");
  if (r.outcome !== "conflicts") return;
  assert.deepEqual(
    r.contested.map((c) => [c.path, c.kind]),
    [["src/other.txt", "modify/delete"]],
  );
  const draft = readFileSync(join(r.scratch, "files", "src/other.txt"), "utf8");
  assert.match(draft, /^<<<<<<< w1 · change the app \(no such file on this side: deleted, or never there\)$/m);
  assert.match(draft, /^alpha\nBETA\n>>>>>>> w2 · change the app$/m);
  rmSync(join(r.scratch, "files", "src/other.txt"));
  const done = continueCombine(p.g.ctx);
  assert.equal(done.outcome, "combined");
  if (done.outcome !== "combined") return;
  assert.deepEqual(done.files, ["src/other.txt"]);
  assert.match(frozenPatchOf(p.g.ctx, done.deliverable.ref).patch, /^deleted file mode/m);
});

test("both sides handed to one worker: its inbox gets the other's frozen patch and the conflict in diff3 form, and nothing is closed", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 5: "five by w1" }) }, { "src/app.txt": appWith({ 5: "five by w2" }) });
  assert.throws(() => combineChangeSets(p.g.ctx, { sources: ["w1", "w2"], to: "w3" }), code("combine-to-invalid"));
  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"], to: "w1" });
  assert.equal(r.outcome, "handed-off");
  const m = p.g.ctx.db.prepare("SELECT worker, kind, body FROM messages").get() as {
    worker: string;
    kind: string;
    body: string;
  };
  assert.equal(m.worker, "w1");
  assert.equal(m.kind, "tell");
  assert.match(m.body, /^\+five by w2$/m, "the other side's frozen patch");
  assert.match(m.body, /^<<<<<<< w1 · change the app$/m, "the residue, labelled");
  assert.deepEqual(
    decisions(p.g, "combine-handoff").map((d) => d.worker),
    ["w1", "w2"],
  );
  assert.equal(decisions(p.g, "combine").length, 0);
});

test("refusals: the same worker twice, a promoted source, a worker without a patch, and a git without merge-tree --write-tree", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 1: "one" }) }, { "src/app.txt": appWith({ 40: "forty" }) });
  assert.throws(
    () => combineChangeSets(p.g.ctx, { sources: ["w1", "worker-deliverable:w1:1"] }),
    code("combine-same-worker"),
  );
  const empty = reviewWorker(t, p.g);
  publish(p.g, empty, {});
  assert.throws(() => combineChangeSets(p.g.ctx, { sources: ["w1", empty.worker] }), code("nothing-to-combine"));
  approve(p.g.ctx, { target: "w2" });
  promote(p.g.ctx, { target: "w2", yes: true });
  assert.throws(
    () => combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] }),
    (e: unknown) => isDocketError(e) && e.code === "combine-source-closed" && /is already promoted/.test(e.message),
  );
  assert.throws(
    () => assertMergeTreeGit("2.37.1"),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "git-too-old" &&
      /needs git 2\.38 or newer .* this machine has 2\.37\.1/.test(e.message),
  );
  assert.doesNotThrow(() => assertMergeTreeGit("2.38.0"));
  assert.equal(gitStatus(p.g.project).includes("src/app.txt"), true);
});

test("conflict markers can never be promoted: a combined version whose patch carries merge residue is refused even when approved", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 5: "five by w1" }) }, { "src/app.txt": appWith({ 5: "five by w2" }) });
  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  if (r.outcome !== "conflicts") return assert.fail("expected conflicts");
  const file = join(r.scratch, "files", "src/app.txt");
  // A human who leaves only the middle marker of each region (`=======` alone is text) still cannot freeze `<<<<<<<`.
  writeFileSync(file, readFileSync(file, "utf8").replace(/^\|{7}.*\n/m, ""));
  assert.throws(() => continueCombine(p.g.ctx), code("conflict-markers"));
  writeFileSync(file, appWith({ 5: "five" }));
  const done = continueCombine(p.g.ctx);
  if (done.outcome !== "combined") return assert.fail("expected combined");
  // Rewrite the frozen sidecar with residue and approve those bytes: promotion still refuses it.
  const sidecar = join(p.g.home, "combined", "w1-w2", "v1.json");
  const d = JSON.parse(readFileSync(sidecar, "utf8"));
  d.changeSet.patch = d.changeSet.patch.replace("+five\n", "+<<<<<<< w1 · change the app\n+five\n");
  writeFileSync(sidecar, `${JSON.stringify(d, null, 2)}\n`);
  approve(p.g.ctx, { target: done.deliverable.ref });
  const before = checkoutFingerprint(p.g.project);
  assert.throws(
    () => promote(p.g.ctx, { target: done.deliverable.ref, yes: true }),
    (e: unknown) => isDocketError(e) && e.code === "conflict-markers" && /markers are never promoted/.test(e.message),
  );
  assert.deepEqual(checkoutFingerprint(p.g.project), before);
});
