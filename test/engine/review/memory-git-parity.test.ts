// The in-memory git's patches hold up against real git: byte for byte what a capture takes, read and applied by real
// git alike; the memory git applies real git's own patches, forward and reversed; both refuse one conflicting parent.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { systemGit } from "../../../src/substrate/git/port.js";
import { git, gitRepo, writeFiles } from "../../support/git.js";
import { applyTo, diffFiles, type Files } from "../../support/memory-diff.js";
import { memoryGit } from "../../support/memory-git.js";
import { appWith } from "../../support/review-fixture.js";
import { tempDir } from "../../support/temp.js";

type Tree = Record<string, string>;

const BEFORE: Tree = {
  "README.md": "hello\n",
  "src/app.txt": appWith({}),
  "src/tail.txt": "one\ntwo\nthree",
  "src/gone.txt": "bye\nfor now\n",
};

/** Each case: what the worker's tree holds after its edits (null deletes). */
const CASES: Record<string, Record<string, string | null>> = {
  "one line in the middle": { "src/app.txt": appWith({ 20: "twenty" }) },
  "two hunks apart, a line added and one removed": {
    "src/app.txt": appWith({ 2: "two\nand a half" }).replace("line 35\n", ""),
  },
  "a last line without a newline, edited and given one": { "src/tail.txt": "one\ntwo\nTHREE\n" },
  "a newline taken from the last line": { "README.md": "hello" },
  "a file created, one empty, one deleted": {
    "src/new.txt": "brand\nnew\n",
    "src/empty.txt": "",
    "src/gone.txt": null,
  },
};

function edited(before: Tree, edits: Record<string, string | null>): Tree {
  const after = { ...before };
  for (const [path, text] of Object.entries(edits)) {
    if (text === null) delete after[path];
    else after[path] = text;
  }
  return after;
}

/** The checkout's files on disk, `.git` left out. */
function treeOf(dir: string): Tree {
  const out: Tree = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    const path = relative(dir, full);
    if (entry.isFile() && !path.startsWith(".git")) out[path] = readFileSync(full, "utf8");
  }
  return out;
}

/** Real git's patch of `after` against `before`, as a capture takes it (binary-safe, no renames). */
function realPatch(repo: string, before: Tree, after: Tree): string {
  for (const path of Object.keys(before)) if (!(path in after)) rmSync(join(repo, path));
  writeFiles(repo, after);
  git(repo, "add", "-A");
  const patch = git(repo, "diff", "--cached", "--binary", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/", "HEAD");
  git(repo, "reset", "-q", "--hard", "HEAD");
  return patch;
}

const files = (tree: Tree): Files => new Map(Object.entries(tree));
const sorted = (tree: Tree): Tree => Object.fromEntries(Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : 1)));

for (const [name, edits] of Object.entries(CASES)) {
  test(`parity with real git: ${name}`, (t) => {
    const repo = gitRepo(tempDir(t, "docket-parity-"), BEFORE);
    const after = edited(BEFORE, edits);
    const ours = diffFiles(files(BEFORE), files(after));
    const theirs = realPatch(repo, BEFORE, after);
    assert.equal(ours, theirs, "byte for byte the patch a capture takes with real git");
    const read = memoryGit(repo, BEFORE).readFrozenPatch(ours);
    assert.deepEqual(read, systemGit.readFrozenPatch(ours), "git reads the files in our patch as we do");
    assert.deepEqual(systemGit.checkPatch(repo, ours), { ok: true });
    assert.deepEqual(systemGit.applyPatch(repo, ours), { ok: true });
    assert.deepEqual(sorted(treeOf(repo)), sorted(after), "real git applying our patch makes the worker's tree");
    assert.equal(systemGit.isPatchApplied(repo, ours), true);
    assert.equal(memoryGit(repo, after).isPatchApplied(repo, ours), true, "both see it applied");
    const forward = applyTo(files(BEFORE), theirs);
    assert.ok(forward.ok);
    assert.deepEqual(sorted(Object.fromEntries(forward.files)), sorted(after), "we apply real git's patch as git does");
    const back = applyTo(files(after), theirs, true);
    assert.ok(back.ok);
    assert.deepEqual(sorted(Object.fromEntries(back.files)), sorted(BEFORE), "and reverse it");
  });
}

test("parity with real git: a parent that changed the same line refuses the patch in both, naming the file", (t) => {
  const repo = gitRepo(tempDir(t, "docket-parity-"), BEFORE);
  const ours = diffFiles(files(BEFORE), files(edited(BEFORE, { "src/app.txt": appWith({ 3: "worker three" }) })));
  const parent = edited(BEFORE, { "src/app.txt": appWith({ 3: "parent three" }) });
  writeFiles(repo, parent);
  const memory = memoryGit(repo, parent);
  const real = systemGit.checkPatch(repo, ours);
  const mem = memory.checkPatch(repo, ours);
  assert.equal(real.ok, false);
  assert.equal(mem.ok, false);
  assert.deepEqual(
    [real, mem].map((c) => (c.ok ? [] : c.problems.map((p) => p.path))),
    [["src/app.txt"], ["src/app.txt"]],
  );
  assert.equal(memory.isPatchApplied(repo, ours), systemGit.isPatchApplied(repo, ours));
});
