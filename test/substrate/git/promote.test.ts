// The git side of promotion: apply --check, apply and reverse through stdin, per-file problems, parent changes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyPatch,
  checkPatch,
  parentChangesSince,
  parseApplyErrors,
  reversePatch,
} from "../../../src/substrate/git/promote.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

function patchIn(repo: string, edit: () => void): string {
  edit();
  git(repo, "add", "-A");
  const patch = git(repo, "diff", "--cached", "--binary", "HEAD");
  git(repo, "reset", "-q", "--hard", "HEAD");
  return patch;
}

test("git apply complaints become one problem per file with its reason", () => {
  const problems = parseApplyErrors(
    "error: patch failed: src/a.ts:3\nerror: src/a.ts: patch does not apply\nerror: b.txt: already exists in working directory\n",
  );
  assert.deepEqual(problems, [
    {
      path: "src/a.ts",
      reason: "your checkout's lines around line 3 differ from the patch's context; patch does not apply",
    },
    { path: "b.txt", reason: "already exists in working directory" },
  ]);
});

test("check, apply and reverse a patch through stdin; a refused check changes nothing", (t) => {
  const repo = gitRepo(tempDir(t), { "a.txt": "one\ntwo\n" });
  const patch = patchIn(repo, () => writeFileSync(join(repo, "a.txt"), "one\n2\n"));
  assert.deepEqual(checkPatch(repo, patch), { ok: true });
  assert.equal(applyPatch(repo, patch).ok, true);
  assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "one\n2\n");
  assert.equal(reversePatch(repo, patch), true);
  writeFileSync(join(repo, "a.txt"), "other\ncontent\n");
  const check = checkPatch(repo, patch);
  assert.equal(check.ok, false);
  assert.deepEqual(check.ok ? [] : check.problems.map((p) => p.path), ["a.txt"]);
  assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "other\ncontent\n");
});

test("parent changes since the base include edits, deletions and untracked files on the patch's paths only", (t) => {
  const repo = gitRepo(tempDir(t), { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
  const base = git(repo, "rev-parse", "HEAD").trim();
  writeFileSync(join(repo, "a.txt"), "A\n");
  git(repo, "rm", "-q", "b.txt");
  writeFileSync(join(repo, "new.txt"), "n\n");
  writeFileSync(join(repo, "c.txt"), "not in the patch\n");
  assert.deepEqual(parentChangesSince(repo, { base, baseHead: base }, ["a.txt", "b.txt", "new.txt", "d.txt"]), [
    { path: "a.txt", status: "M" },
    { path: "b.txt", status: "D" },
    { path: "new.txt", status: "?" },
  ]);
  assert.equal(parentChangesSince(repo, { base: "0".repeat(40), baseHead: null }, ["a.txt"]), undefined);
});
