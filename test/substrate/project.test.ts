// The project a command runs in, against real git repositories: the file-system answer matches git's in the plain
// case and starts no git; every layout only git can judge is asked of git, and still gets git's answer.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRootOf } from "../../src/substrate/project.js";
import { countingGit } from "../support/git-counter.js";
import { git, gitRepo } from "../support/git.js";
import { tempDir } from "../support/temp.js";

/** What `git rev-parse --show-toplevel` says from `cwd`, or the directory itself outside a work tree. */
function gitsAnswer(cwd: string): string {
  try {
    return realpathSync(
      execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd, encoding: "utf8", stdio: "pipe" }).trim(),
    );
  } catch {
    return realpathSync(cwd);
  }
}

test("a plain repository's top level is found from its root, a subdirectory or a link, with no git process", (t) => {
  const repo = gitRepo(tempDir(t));
  const deep = join(repo, "src", "deep");
  mkdirSync(deep, { recursive: true });
  const link = join(tempDir(t), "link");
  symlinkSync(deep, link);
  for (const cwd of [repo, deep, link]) {
    const { result, calls } = countingGit(t, () => projectRootOf(cwd));
    assert.equal(result, gitsAnswer(cwd), cwd);
    assert.equal(result, realpathSync(repo));
    assert.deepEqual(calls, [], `no git process from ${cwd}`);
  }
});

test("a nested repository is its own project, as git says", (t) => {
  const outer = gitRepo(tempDir(t));
  mkdirSync(join(outer, "vendor", "inner"), { recursive: true });
  const inner = gitRepo(join(outer, "vendor", "inner"));
  const { result, calls } = countingGit(t, () => projectRootOf(inner));
  assert.equal(result, gitsAnswer(inner));
  assert.equal(result, realpathSync(inner));
  assert.deepEqual(calls, []);
});

test("a linked worktree, a moved work tree, a bare repository and no repository are asked of git", (t) => {
  const repo = gitRepo(tempDir(t));
  const linked = join(tempDir(t), "linked");
  git(repo, "worktree", "add", "-q", "-b", "side", linked);

  const moved = gitRepo(tempDir(t));
  const elsewhere = join(tempDir(t), "elsewhere");
  mkdirSync(elsewhere);
  git(moved, "config", "core.worktree", elsewhere);

  const bare = join(tempDir(t), "bare.git");
  execFileSync("git", ["init", "-q", "--bare", bare]);

  const included = gitRepo(tempDir(t));
  writeFileSync(join(included, "extra.gitconfig"), "[core]\n");
  git(included, "config", "include.path", join(included, "extra.gitconfig"));

  const none = tempDir(t);
  for (const [cwd, why] of [
    [linked, "a .git file"],
    [join(moved, "sub"), "core.worktree"],
    [join(bare, "refs"), "a bare repository"],
    [included, "an include"],
    [none, "no repository"],
  ] as const) {
    mkdirSync(cwd, { recursive: true });
    const { result, calls } = countingGit(t, () => projectRootOf(cwd));
    assert.equal(result, gitsAnswer(cwd), why);
    assert.deepEqual(calls, ["rev-parse"], `${why}: git decides`);
  }
});
