// Parsing a worker's change set from git's -z numstat and patch output: files, binaries, hunks and the stat, or an error.

import { test } from "node:test";
import assert from "node:assert/strict";
import { countHunks, formatStat, parseNumstatPatch } from "../../../src/domain/deliverables/change-set.js";

test("numstat records, binary files and the patch are split from one -z output", () => {
  const out =
    "-\t-\tbin.dat\0" +
    "2\t1\tf.txt\0" +
    '1\t0\tsp ace "q".txt\0' +
    "\0" +
    "diff --git a/bin.dat b/bin.dat\n@@ -1 +1 @@\n";
  const parsed = parseNumstatPatch(out);
  assert.deepEqual(parsed.files, [
    { path: "bin.dat", additions: 0, deletions: 0, binary: true },
    { path: "f.txt", additions: 2, deletions: 1 },
    { path: 'sp ace "q".txt', additions: 1, deletions: 0 },
  ]);
  assert.equal(parsed.patch, "diff --git a/bin.dat b/bin.dat\n@@ -1 +1 @@\n");
});

test("an empty diff parses to no files and an empty patch", () => {
  assert.deepEqual(parseNumstatPatch(""), { files: [], patch: "" });
});

test("a truncated numstat record is an error, not a silent partial list", () => {
  assert.throws(() => parseNumstatPatch("1\t2\tno-terminator"), /unexpected numstat output/);
});

test("hunks are counted from lines that start with '@@ ', not from '@@' inside hunk lines", () => {
  const patch = "@@ -1 +1 @@\n-a\n+@@ b\n @@ c\n@@ -9 +9 @@\n x\n";
  assert.equal(countHunks(patch), 2);
  assert.equal(countHunks(""), 0);
});

test("the stat lists each file and the totals, with binary files marked", () => {
  const stat = formatStat([
    { path: "a.txt", additions: 3, deletions: 1 },
    { path: "b.bin", additions: 0, deletions: 0, binary: true },
  ]);
  assert.equal(stat, " a.txt | +3 -1\n b.bin | binary\n 2 files changed, 3 insertions(+), 1 deletion(-)");
  assert.equal(formatStat([]), "");
});
