// The verdict queue over several workers shares what its cards read: git is asked once per distinct base,
// and every card in the queue carries exactly the warnings its own card carries. Real worktrees, sidecars and git.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { verdictCard, verdictQueue } from "../../../src/engine/review/verdict.js";
import { approve } from "../../../src/engine/review/judge.js";
import { parentChangesForEach, parentChangesSince } from "../../../src/substrate/git/promote.js";
import { git, gitRepo } from "../../support/git.js";
import { countingGit } from "../../support/git-counter.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tempDir } from "../../support/temp.js";

test("the queue asks git once per distinct base and gives every card the warnings its own card gives", (t) => {
  const g = reviewGround(t);
  const first = [reviewWorker(t, g), reviewWorker(t, g), reviewWorker(t, g)];
  publish(g, first[0]!, { "src/app.txt": appWith({ 3: "three" }) });
  publish(g, first[1]!, { "src/app.txt": appWith({ 4: "four" }), "src/other.txt": "alpha\n" });
  publish(g, first[2]!, { "src/other.txt": "beta\n", "README.md": "hello there\n" });
  approve(g.ctx, { target: first[2]!.worker }); // approved: still a pending peer, no longer queued
  writeFileSync(join(g.project, "README.md"), "moved\n");
  git(g.project, "commit", "-qam", "the parent moves on");
  const second = [reviewWorker(t, g), reviewWorker(t, g)];
  publish(g, second[0]!, { "src/app.txt": appWith({ 30: "thirty" }), "docs/new.md": "new\n" });
  publish(g, second[1]!, { "src/other.txt": "gamma\n" });
  writeFileSync(join(g.project, "src/other.txt"), "the parent's uncommitted edit\n");
  writeFileSync(join(g.project, "docs-new.md"), "untracked, not on any patch\n");
  g.ctx.projectRoot();

  const { result: queue, calls } = countingGit(t, () => verdictQueue(g.ctx));
  assert.deepEqual(
    queue.map((c) => c.worker),
    [second[1]!.worker, second[0]!.worker, first[1]!.worker, first[0]!.worker],
  );
  assert.deepEqual(
    calls.filter((c) => c !== "--version"),
    ["cat-file", "config", "diff", "diff", "ls-files"],
    "one commit check, one filter-driver lookup, one diff per base, one untracked listing",
  );
  // Combine is offered in the queue without a dry merge (git in a private store); each card measures it when opened.
  const offered = queue.flatMap((c) => c.warnings.filter((w) => w.kind === "combine").map((w) => w.text));
  assert.ok(
    offered.length > 0 && offered.every((text) => text.endsWith(" · its card measures the merge")),
    offered.join("\n"),
  );
  const one = queue.find((c) => c.warnings.some((w) => w.kind === "combine"))!;
  assert.ok(
    verdictCard(g.ctx, one.worker).warnings.some(
      (w) => w.kind === "combine" && /· (merges clean, \d+ files?|\d+ conflicts? in \d+ files?)$/.test(w.text),
    ),
    "the card alone measures it",
  );
  for (const card of queue)
    assert.deepEqual(card, verdictCard(g.ctx, card.worker, { dryMerge: false }), `${card.worker}'s card`);
  const kinds = queue.flatMap((c) => c.warnings.map((w) => w.kind));
  assert.ok(
    kinds.includes("overlap") && kinds.includes("parent-moved"),
    `the queue shows overlaps and parent moves: ${kinds.join(", ")}`,
  );
});

test("asking for many workers at once answers each exactly as asking alone, unknown bases included", (t) => {
  const repo = gitRepo(tempDir(t), { "a.txt": "a\n", "b.txt": "b\n", "dir/c.txt": "c\n", "dir/d.txt": "d\n" });
  const base1 = git(repo, "rev-parse", "HEAD").trim();
  writeFileSync(join(repo, "b.txt"), "B\n");
  git(repo, "commit", "-qam", "b");
  const base2 = git(repo, "rev-parse", "HEAD").trim();
  writeFileSync(join(repo, "a.txt"), "A\n");
  git(repo, "rm", "-q", "dir/d.txt");
  writeFileSync(join(repo, "new.txt"), "n\n");
  writeFileSync(join(repo, "dir/e.txt"), "e\n");
  const unknown = "0".repeat(40);
  const queries = [
    { base: base1, baseHead: base1, paths: ["a.txt", "b.txt"] },
    { base: base2, baseHead: base2, paths: ["a.txt", "new.txt", "dir/d.txt"] },
    { base: unknown, baseHead: base1, paths: ["b.txt", "dir/e.txt"] },
    { base: unknown, baseHead: null, paths: ["a.txt"] },
    { base: base2, baseHead: base2, paths: [] },
    { base: "HEAD~1", baseHead: null, paths: ["dir"] },
  ];
  const alone = queries.map((q) => parentChangesSince(repo, q, q.paths));
  const { result: together, calls } = countingGit(t, () => parentChangesForEach(repo, queries));
  assert.deepEqual(
    together,
    alone.map((changes) => ({ ok: true, changes })),
  );
  assert.deepEqual(alone[2], [
    { path: "b.txt", status: "M" },
    { path: "dir/e.txt", status: "?" },
  ]);
  assert.equal(alone[3], undefined);
  assert.deepEqual(alone[5], [
    { path: "dir/d.txt", status: "D" },
    { path: "dir/e.txt", status: "?" },
  ]);
  // HEAD~1 is checked on its own (not an object id) and diffed as its own revision: three bases, three diffs.
  assert.deepEqual(calls, ["cat-file", "cat-file", "config", "diff", "diff", "diff", "ls-files"]);
});
