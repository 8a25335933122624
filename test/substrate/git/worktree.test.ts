// Isolated workspaces against real git repositories: baseline contents, outside-git copies, change detection.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createIsolatedWorkspace, inspectRepository, removeWorkspace } from "../../../src/substrate/git/worktree.js";
import { liveChangesExist as liveChangesIn } from "../../../src/substrate/git/live-tree.js";
import { git, gitRepo, writeFiles } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

test("a worktree baseline holds the parent's dirty and untracked files but not its ignored ones", (t) => {
  const repo = gitRepo(tempDir(t), {
    "a.txt": "one\n",
    ".gitignore": "secret.env\nbuild/\n",
    "bin.dat": "\u0000\u0001",
  });
  const head = git(repo, "rev-parse", "HEAD").trim();
  writeFiles(repo, {
    "a.txt": "one\ntwo\n",
    "new/untracked.txt": "fresh\n",
    "secret.env": "TOKEN=1\n",
    "build/out.js": "x\n",
  });
  git(repo, "add", "new/untracked.txt");
  writeFiles(repo, { "staged-then-edited.txt": "s\n" });
  const target = join(tempDir(t), "ws");
  const ws = createIsolatedWorkspace({ root: repo, target, adminName: "docket-w1" });
  t.after(() => removeWorkspace({ root: repo, path: target, method: ws.method }));
  assert.equal(ws.method, "worktree");
  assert.equal(ws.baseHead, head);
  assert.notEqual(ws.base, head);
  assert.equal(readFileSync(join(target, "a.txt"), "utf8"), "one\ntwo\n");
  assert.equal(readFileSync(join(target, "new/untracked.txt"), "utf8"), "fresh\n");
  assert.equal(readFileSync(join(target, "staged-then-edited.txt"), "utf8"), "s\n");
  assert.equal(existsSync(join(target, "secret.env")), false);
  assert.equal(existsSync(join(target, "build")), false);
  assert.equal(
    git(target, "log", "-1", "--format=%an <%ae> %s").trim(),
    "Docket <docket@example.invalid> Docket worker baseline",
  );
  assert.equal(git(target, "rev-parse", "HEAD").trim(), ws.base);
  assert.equal(git(target, "status", "--porcelain").trim(), "");
  assert.equal(
    liveChangesIn({ projectRoot: repo, workspace: target, worker: "w1", method: "worktree" }, ws.base),
    false,
  );
  // the parent checkout was not touched
  assert.equal(git(repo, "rev-parse", "HEAD").trim(), head);
  assert.match(git(repo, "status", "--porcelain"), /A {2}new\/untracked.txt/);
});

test("edits, new files and commits in the workspace are live changes; ignored files are not", (t) => {
  const repo = gitRepo(tempDir(t), { "a.txt": "one\n", ".gitignore": "*.log\n" });
  const target = join(tempDir(t), "ws");
  const ws = createIsolatedWorkspace({ root: repo, target, adminName: "docket-w1" });
  t.after(() => removeWorkspace({ root: repo, path: target, method: ws.method }));
  writeFileSync(join(target, "debug.log"), "noise\n");
  assert.equal(
    liveChangesIn({ projectRoot: repo, workspace: target, worker: "w1", method: "worktree" }, ws.base),
    false,
  );
  writeFileSync(join(target, "b.txt"), "new\n");
  assert.equal(
    liveChangesIn({ projectRoot: repo, workspace: target, worker: "w1", method: "worktree" }, ws.base),
    true,
  );
  git(target, "add", "b.txt");
  git(target, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "worker commit");
  assert.equal(
    liveChangesIn({ projectRoot: repo, workspace: target, worker: "w1", method: "worktree" }, ws.base),
    true,
    "a commit past the base is still a change",
  );
});

test("outside git the tree is copied without .git, initialised and committed, and the summary says so", (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { "notes.md": "# notes\n", "sub/x.txt": "x\n" });
  assert.equal(inspectRepository(dir).kind, "none");
  const target = join(tempDir(t), "ws");
  const ws = createIsolatedWorkspace({ root: dir, target });
  assert.equal(ws.method, "copy");
  assert.equal(ws.baseHead, null);
  assert.match(ws.notes.join("\n"), /is not a git repository; copied the tree/);
  assert.equal(readFileSync(join(target, "sub/x.txt"), "utf8"), "x\n");
  assert.equal(git(target, "rev-parse", "HEAD").trim(), ws.base);
  removeWorkspace({ root: dir, path: target, method: ws.method });
  assert.equal(existsSync(target), false);
  assert.equal(existsSync(join(dir, "notes.md")), true, "removing a copied workspace leaves the parent alone");
});

test("an unborn repository is copied too, without its .git, and said to have no commit yet", (t) => {
  const dir = tempDir(t);
  git(dir, "init", "-q", "-b", "main");
  writeFiles(dir, { "a.txt": "a\n" });
  assert.equal(inspectRepository(dir).kind, "unborn");
  const target = join(tempDir(t), "ws");
  const ws = createIsolatedWorkspace({ root: dir, target });
  assert.equal(ws.method, "copy");
  assert.match(ws.notes[0]!, /no commit yet/);
  assert.equal(readFileSync(join(target, "a.txt"), "utf8"), "a\n");
  assert.equal(git(target, "log", "--format=%s").trim(), "Docket worker baseline");
});

test("removing a worktree workspace unregisters it from the parent repository", (t) => {
  const repo = gitRepo(tempDir(t));
  const target = join(tempDir(t), "ws");
  const ws = createIsolatedWorkspace({ root: repo, target, adminName: "docket-w1" });
  assert.match(git(repo, "worktree", "list"), /ws/);
  removeWorkspace({ root: repo, path: target, method: ws.method });
  assert.doesNotMatch(git(repo, "worktree", "list"), /ws/);
  assert.equal(existsSync(target), false);
});

test("a workspace gets its own admin name in the repository, keeps the folder name it was given, and runs its worktree changes through the lock", (t) => {
  const repo = gitRepo(tempDir(t), { "a.txt": "one\n", "src/b.txt": "two\n" });
  const target = join(tempDir(t), "w7", "workspace");
  const locked: string[] = [];
  const serialize = <T>(fn: () => T): T => {
    locked.push("enter");
    try {
      return fn();
    } finally {
      locked.push("leave");
    }
  };
  const ws = createIsolatedWorkspace({ root: repo, target, adminName: "docket-w7", serialize });
  assert.deepEqual(locked, ["enter", "leave"]);
  assert.equal(
    readFileSync(join(repo, ".git", "worktrees", "docket-w7", "gitdir"), "utf8").trim(),
    join(target, ".git"),
  );
  assert.equal(readFileSync(join(target, "src/b.txt"), "utf8"), "two\n", "the files are checked out");
  assert.equal(git(target, "status", "--porcelain").trim(), "");
  assert.equal(git(target, "rev-parse", "HEAD").trim(), ws.base);
  removeWorkspace({ root: repo, path: target, method: ws.method, serialize });
  assert.deepEqual(locked, ["enter", "leave", "enter", "leave"]);
  assert.equal(existsSync(join(repo, ".git", "worktrees", "docket-w7")), false);
  assert.doesNotMatch(git(repo, "worktree", "list"), /w7/);
});
