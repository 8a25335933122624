// Capturing a workspace's changes with a private git index: every edit is seen, the worktree's index never written.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureChangeSet, type CaptureChangeSetInput } from "../../../src/substrate/git/changes.js";
import { createIsolatedWorkspace, removeWorkspace } from "../../../src/substrate/git/worktree.js";
import { countingGit } from "../../support/git-counter.js";
import { isDocketError } from "../../../src/domain/errors.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

/** A worktree whose admin directory is `docket-w1`, as spawn names it for worker w1. */
function worktree(t: { after(fn: () => void): void }) {
  const project = gitRepo(tempDir(t, "docket-gc-"), { "a.txt": "one\ntwo\n", "b.txt": "bee\n" });
  const ws = join(tempDir(t, "docket-gc-ws-"), "docket-w1");
  git(project, "worktree", "add", "-q", "--detach", ws, "HEAD");
  return { project, ws, base: git(ws, "rev-parse", "HEAD").trim() };
}

const adminIndex = (project: string) => join(project, ".git", "worktrees", "docket-w1", "index");

function capture(
  project: string,
  ws: string,
  base: string,
  ref = "worker-changes:w1:1",
): ReturnType<typeof captureChangeSet> {
  const input: CaptureChangeSetInput = {
    tree: { projectRoot: project, workspace: ws, worker: "w1", method: "worktree" },
    base,
    ref,
  };
  return captureChangeSet(input);
}

test("a same-size edit in the checkout's own second is still captured a second later (racy-git protection survives)", (t) => {
  // Reproduces the case a fresh index copy got wrong: entry and file agree on size, mtime and ctime seconds, and
  // only git's racily-clean rule (entry time >= index time) forces a content check.
  let ws = "";
  let base = "";
  let project = "";
  let second = -1;
  for (let attempt = 0; attempt < 10 && second === -1; attempt++) {
    ({ ws, base, project } = worktree(t));
    writeFileSync(join(ws, "a.txt"), "one\nTWO\n");
    const indexSecond = Math.floor(statSync(adminIndex(project)).mtimeMs / 1000);
    if (Math.floor(statSync(join(ws, "a.txt")).ctimeMs / 1000) === indexSecond) second = indexSecond;
  }
  assert.notEqual(second, -1, "could not edit within the checkout's second");
  while (Math.floor(Date.now() / 1000) <= second) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  const cs = capture(project, ws, base);
  assert.deepEqual(cs.files, [{ path: "a.txt", additions: 1, deletions: 1 }]);
});

test("capture never writes the worktree's own index", (t) => {
  const { ws, base, project } = worktree(t);
  writeFileSync(join(ws, "c.txt"), "new\n");
  const index = adminIndex(project);
  const bytes = readFileSync(index);
  const cs = capture(project, ws, base);
  assert.equal(cs.files.length, 1);
  assert.deepEqual(readFileSync(index), bytes);
  assert.equal(git(ws, "status", "--porcelain"), "?? c.txt\n");
});

test("no changes give an empty change set, and a missing workspace or base is refused with what to do", (t) => {
  const { ws, base, project } = worktree(t);
  assert.deepEqual(capture(project, ws, base, "r"), { ref: "r", base, files: [], stat: "", hunks: 0, patch: "" });
  assert.throws(
    () => capture(project, join(ws, "nope"), base, "r"),
    (e) => isDocketError(e) && e.code === "workspace-git-tampered" && /the workspace is gone/.test(e.message),
  );
  assert.throws(
    () => capture(project, ws, "0".repeat(40), "r"),
    (e) => isDocketError(e) && e.code === "change-set-capture-failed" && /^git diff failed in /.test(e.message),
  );
});

test("the kept private index follows every edit between captures, including same-size edits right after one", (t) => {
  const { ws, base, project } = worktree(t);
  writeFileSync(join(ws, "a.txt"), "one\nTWO\n");
  assert.deepEqual(
    capture(project, ws, base, "r").files.map((f) => f.path),
    ["a.txt"],
  );
  writeFileSync(join(ws, "a.txt"), "one\ntwo\n");
  writeFileSync(join(ws, "b.txt"), "BEE\n");
  assert.deepEqual(
    capture(project, ws, base, "r").files.map((f) => f.path),
    ["b.txt"],
  );
  writeFileSync(join(ws, "b.txt"), "bee\n");
  assert.deepEqual(capture(project, ws, base, "r").files, []);
  assert.equal(git(ws, "status", "--porcelain"), "", "the worker's own index and tree agree as before");
});

test("spawn keeps the base's index for the first done: its check reads no base", (t) => {
  const project = gitRepo(tempDir(t, "docket-gc-"), { "a.txt": "one\ntwo\n", "b.txt": "bee\n" });
  const target = join(tempDir(t, "docket-gc-ws-"), "workspace");
  const made = createIsolatedWorkspace({ root: project, target, adminName: "docket-w1" });
  t.after(() => removeWorkspace({ root: project, path: target, method: made.method }));
  const w1 = { ws: target, base: made.base };
  writeFileSync(join(w1.ws, "a.txt"), "one\nTWO\n");
  writeFileSync(join(w1.ws, "c.txt"), "new\n");
  const input: CaptureChangeSetInput = {
    tree: { projectRoot: project, workspace: w1.ws, worker: "w1", method: "worktree" },
    base: w1.base,
    ref: "r",
  };
  const { result, calls } = countingGit(t, () => captureChangeSet(input));
  assert.deepEqual(
    result.files.map((f) => f.path),
    ["a.txt", "c.txt"],
  );
  assert.ok(!calls.includes("read-tree"), calls.join(" "));
  assert.deepEqual(calls.slice(-3), ["add", "diff", "apply"], "the capture, its diff and the check");
  // The kept index is the base's own: the same entries as the base's tree.
  const kept = join(project, ".git", "worktrees", "docket-w1", `docket-base-${w1.base}.index`);
  const entries = execFileSync("git", ["ls-files", "-s"], {
    cwd: project,
    env: { ...process.env, GIT_INDEX_FILE: kept },
    encoding: "utf8",
  });
  const tree = git(project, "ls-tree", "-r", w1.base)
    .split("\n")
    .filter(Boolean)
    .map((l) => l.replace(/^(\d+) blob (\S+)\t/, "$1 $2 0\t"));
  assert.deepEqual(entries.split("\n").filter(Boolean), tree);
});
