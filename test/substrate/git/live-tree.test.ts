// A worker's live tree through worker-git: equal to its frozen patch until the worker edits again, reset back to its
// base (index, files and HEAD), and never read through a `.git` the worker changed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDocketError } from "../../../src/domain/errors.js";
import { liveChangedPaths, liveEqualsFrozen, resetWorkspace } from "../../../src/substrate/git/live-tree.js";
import { createIsolatedWorkspace, removeWorkspace } from "../../../src/substrate/git/worktree.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

test("a live workspace equals its frozen patch until the worker edits again; reset goes back to the base", (t) => {
  const repo = gitRepo(tempDir(t), { "a.txt": "a\n", ".gitignore": "ignored.log\n" });
  const target = join(tempDir(t), "workspace");
  const ws = createIsolatedWorkspace({ root: repo, target, adminName: "docket-w1" });
  t.after(() => removeWorkspace({ root: repo, path: target, method: ws.method }));
  const ref = { projectRoot: repo, workspace: target, worker: "w1", method: "worktree" as const };
  writeFileSync(join(target, "a.txt"), "A\n");
  writeFileSync(join(target, "new.txt"), "new\n");
  git(target, "add", "-A");
  const patch = git(target, "diff", "--cached", "--binary", ws.base);
  git(target, "reset", "-q");
  git(target, "add", "new.txt");
  git(target, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "worker commit");
  const status = git(target, "status", "--porcelain");
  assert.equal(liveEqualsFrozen(ref, ws.base, patch), true);
  assert.equal(git(target, "status", "--porcelain"), status, "the worker's own index is untouched");
  assert.deepEqual(liveChangedPaths(ref, ws.base), ["a.txt", "new.txt"]);
  writeFileSync(join(target, "a.txt"), "A later\n");
  assert.equal(liveEqualsFrozen(ref, ws.base, patch), false);
  writeFileSync(join(target, "ignored.log"), "keep me\n");
  resetWorkspace(ref, ws.base);
  assert.equal(git(target, "status", "--porcelain"), "");
  assert.equal(git(target, "rev-parse", "HEAD").trim(), ws.base, "HEAD is back at the base too");
  assert.equal(readFileSync(join(target, "ignored.log"), "utf8"), "keep me\n", "ignored files stay");
  writeFileSync(join(target, ".git"), `gitdir: ${join(repo, ".git")}\n`);
  assert.throws(
    () => liveChangedPaths(ref, ws.base),
    (e) => isDocketError(e) && e.code === "workspace-git-tampered",
  );
});
