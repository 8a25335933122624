// What the parent changed since a base, from the home's cache: asked of git once, then not at all until something that
// would change the answer moves (an edit, a commit, the index, an untracked file, an ignore rule); a cache file of a bad
// shape is not trusted; an answer read while a file was just written is not kept; the verdict queue's second look runs
// no git. Real git, real files, real worktrees.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EngineContext } from "../../../src/engine/context.js";
import { openEngine } from "../../../src/engine/open.js";
import { cachedParentChanges } from "../../../src/engine/review/parent-cache.js";
import { verdictQueue } from "../../../src/engine/review/verdict.js";
import { parentCachePath } from "../../../src/files/review/parent-cache-file.js";
import type { ParentQuery } from "../../../src/substrate/git/promote.js";
import { git, gitRepo } from "../../support/git.js";
import { countingGit } from "../../support/git-counter.js";
import { UNCONTAINED } from "../../support/docket-cli.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tempDir } from "../../support/temp.js";

type T = Parameters<typeof tempDir>[0];

/** An engine whose clock runs an hour ahead, so every file the test just wrote is settled. */
function ground(t: T, clockAheadMs = 3_600_000): { ctx: EngineContext; repo: string; queries: ParentQuery[] } {
  const repo = gitRepo(tempDir(t), { "a.txt": "a\n", "b.txt": "b\n", "dir/c.txt": "c\n" });
  const base1 = git(repo, "rev-parse", "HEAD").trim();
  writeFileSync(join(repo, "b.txt"), "B\n");
  git(repo, "commit", "-qam", "b");
  const base2 = git(repo, "rev-parse", "HEAD").trim();
  const clock = {
    now: () => new Date(Date.now() + clockAheadMs).toISOString(),
    nowMs: () => Date.now() + clockAheadMs,
  };
  const ctx = openEngine({ env: { DOCKET_HOME: join(tempDir(t), "home") }, cwd: repo, clock });
  t.after(() => ctx.close());
  const queries = [
    { base: base1, baseHead: base1, paths: ["a.txt", "b.txt"] },
    { base: base2, baseHead: base2, paths: ["a.txt", "dir/c.txt", "dir/new.txt"] },
  ];
  return { ctx, repo, queries };
}

/** The cached answers, the uncached ones, and the git subcommands the cached look ran. */
function look(t: T, ctx: EngineContext, repo: string, queries: ParentQuery[]) {
  const { result, calls } = countingGit(t, () => cachedParentChanges(ctx, repo, queries));
  return { cached: result, fresh: ctx.git.parentChangesForEach(repo, queries), calls };
}

test("a second look at an unmoved checkout runs no git; each kind of move makes it ask again, with git's answer", (t) => {
  const { ctx, repo, queries } = ground(t);
  const first = look(t, ctx, repo, queries);
  assert.deepEqual(first.cached, first.fresh);
  assert.ok(first.calls.includes("diff"), `the first look asks git: ${first.calls.join(", ")}`);
  const again = look(t, ctx, repo, queries);
  assert.deepEqual(again.cached, again.fresh);
  assert.deepEqual(again.calls, [], "nothing moved: no git process");

  const moves: [string, () => void][] = [
    ["an uncommitted edit", () => writeFileSync(join(repo, "a.txt"), "edited\n")],
    ["a commit", () => git(repo, "commit", "-qam", "a")],
    [
      "a staged file",
      () => {
        writeFileSync(join(repo, "dir/c.txt"), "C\n");
        git(repo, "add", "dir/c.txt");
      },
    ],
    ["an untracked file", () => writeFileSync(join(repo, "dir/new.txt"), "new\n")],
    ["an ignore rule", () => writeFileSync(join(repo, "dir/.gitignore"), "new.txt\n")],
    ["a reset", () => git(repo, "reset", "-q", "--hard", queries[0]!.base!)],
  ];
  for (const [what, move] of moves) {
    move();
    const after = look(t, ctx, repo, queries);
    assert.deepEqual(after.cached, after.fresh, `after ${what}: git's answer`);
    assert.ok(after.calls.includes("diff"), `after ${what}: git is asked again`);
    assert.deepEqual(look(t, ctx, repo, queries).calls, [], `after ${what}: the new answer is kept`);
  }
});

test("a cache file of a bad shape is not trusted: git answers", (t) => {
  const { ctx, repo, queries } = ground(t);
  look(t, ctx, repo, queries);
  const path = parentCachePath(ctx.home, repo);
  for (const bad of [
    "not json",
    JSON.stringify({
      v: 1,
      repoRoot: repo,
      entries: [{ key: "k", repo: "r", paths: "p", changes: [{ path: "", status: "M" }] }],
    }),
    JSON.stringify({ v: 2 }),
  ]) {
    mkdirSync(join(ctx.home.root, "cache"), { recursive: true });
    writeFileSync(path, bad);
    const r = look(t, ctx, repo, queries);
    assert.deepEqual(r.cached, r.fresh);
    assert.ok(r.calls.includes("diff"), `a cache of ${bad.slice(0, 20)} is not used`);
  }
});

test("an answer read while a file of the checkout was just written is not kept", (t) => {
  const { ctx, repo, queries } = ground(t, 0);
  writeFileSync(join(repo, "a.txt"), "just now\n");
  look(t, ctx, repo, queries);
  const r = look(t, ctx, repo, queries);
  assert.deepEqual(r.cached, r.fresh);
  assert.ok(r.calls.includes("diff"), "asked again: the file may still change within its timestamp's tick");
});

test("the verdict queue's second look, nothing moved, runs no git and shows the same cards; a parent edit is seen", (t) => {
  const g = reviewGround(t);
  const [a, b] = [reviewWorker(t, g), reviewWorker(t, g)];
  publish(g, a, { "src/app.txt": appWith({ 3: "three" }) });
  publish(g, b, { "src/app.txt": appWith({ 4: "four" }), "src/other.txt": "alpha\n" });
  const later = { now: () => new Date(Date.now() + 3_600_000).toISOString(), nowMs: () => Date.now() + 3_600_000 };
  const ctx = openEngine({ env: { DOCKET_HOME: g.home, ...UNCONTAINED }, cwd: g.project, clock: later });
  t.after(() => ctx.close());
  ctx.projectRoot();
  const first = countingGit(t, () => verdictQueue(ctx));
  assert.ok(first.calls.includes("diff"), first.calls.join(", "));
  const second = countingGit(t, () => verdictQueue(ctx));
  assert.deepEqual(second.calls, [], "nothing moved: no git process");
  assert.deepEqual(second.result, first.result);
  writeFileSync(join(g.project, "src/other.txt"), "the parent's own edit\n");
  const third = countingGit(t, () => verdictQueue(ctx));
  assert.ok(third.calls.includes("diff"), third.calls.join(", "));
  assert.ok(
    third.result.some((c) => c.warnings.some((w) => w.kind === "parent-moved" && w.text.includes("src/other.txt"))),
    "the edit is warned of",
  );
});
