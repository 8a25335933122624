// Capturing a workspace's changes with a private git index: every edit is seen, the worktree's index never written.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureChangeSet, resolveGitDir } from "../../../src/substrate/git/changes.js";
import { isDocketError } from "../../../src/domain/errors.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

function worktree(t: { after(fn: () => void): void }) {
  const project = gitRepo(tempDir(t, "docket-gc-"), { "a.txt": "one\ntwo\n", "b.txt": "bee\n" });
  const ws = join(tempDir(t, "docket-gc-ws-"), "ws");
  git(project, "worktree", "add", "-q", "--detach", ws, "HEAD");
  return { project, ws, base: git(ws, "rev-parse", "HEAD").trim() };
}

test("a same-size edit in the checkout's own second is still captured a second later (racy-git protection survives)", (t) => {
  // Reproduces the case a fresh index copy got wrong: entry and file agree on size, mtime and ctime seconds, and
  // only git's racily-clean rule (entry time >= index time) forces a content check.
  let ws = "";
  let base = "";
  let second = -1;
  for (let attempt = 0; attempt < 10 && second === -1; attempt++) {
    ({ ws, base } = worktree(t));
    writeFileSync(join(ws, "a.txt"), "one\nTWO\n");
    const indexSecond = Math.floor(statSync(join(resolveGitDir(ws), "index")).mtimeMs / 1000);
    if (Math.floor(statSync(join(ws, "a.txt")).ctimeMs / 1000) === indexSecond) second = indexSecond;
  }
  assert.notEqual(second, -1, "could not edit within the checkout's second");
  while (Math.floor(Date.now() / 1000) <= second) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  const cs = captureChangeSet({ workspace: ws, base, ref: "worker-changes:w1:1" });
  assert.deepEqual(cs.files, [{ path: "a.txt", additions: 1, deletions: 1 }]);
});

test("capture never writes the worktree's own index", (t) => {
  const { ws, base } = worktree(t);
  writeFileSync(join(ws, "c.txt"), "new\n");
  const index = join(resolveGitDir(ws), "index");
  const bytes = readFileSync(index);
  const cs = captureChangeSet({ workspace: ws, base, ref: "worker-changes:w1:1" });
  assert.equal(cs.files.length, 1);
  assert.deepEqual(readFileSync(index), bytes);
  assert.equal(git(ws, "status", "--porcelain"), "?? c.txt\n");
});

test("no changes give an empty change set, and a missing workspace or base is refused with what to do", (t) => {
  const { ws, base } = worktree(t);
  assert.deepEqual(captureChangeSet({ workspace: ws, base, ref: "r" }), { ref: "r", base, files: [], stat: "", hunks: 0, patch: "" });
  assert.throws(() => captureChangeSet({ workspace: join(ws, "nope"), base, ref: "r" }), (e) => isDocketError(e) && e.code === "workspace-missing" && /is not a git worktree/.test(e.message));
  assert.throws(() => captureChangeSet({ workspace: ws, base: "0".repeat(40), ref: "r" }), (e) => isDocketError(e) && e.code === "change-set-capture-failed" && /^git diff failed in /.test(e.message));
});

test("the kept private index follows every edit between captures, including same-size edits right after one", (t) => {
  const { ws, base } = worktree(t);
  writeFileSync(join(ws, "a.txt"), "one\nTWO\n");
  assert.deepEqual(captureChangeSet({ workspace: ws, base, ref: "r" }).files.map((f) => f.path), ["a.txt"]);
  writeFileSync(join(ws, "a.txt"), "one\ntwo\n");
  writeFileSync(join(ws, "b.txt"), "BEE\n");
  assert.deepEqual(captureChangeSet({ workspace: ws, base, ref: "r" }).files.map((f) => f.path), ["b.txt"]);
  writeFileSync(join(ws, "b.txt"), "bee\n");
  assert.deepEqual(captureChangeSet({ workspace: ws, base, ref: "r" }).files, []);
  assert.equal(git(ws, "status", "--porcelain"), "", "the worker's own index and tree agree as before");
});
