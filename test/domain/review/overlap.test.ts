// Overlap grading between two workers' frozen patches, per shared pre-image path.
// Lines strictly between the nearest changes: 0 → contested, ≤ 8 → adjacent, more → same-file.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { FileRanges } from "../../../src/domain/deliverables/patch-ranges.js";
import { parsePatchRanges } from "../../../src/domain/deliverables/patch-ranges.js";
import { gradeOverlap, isContestedOverlap, rangeGap } from "../../../src/domain/review/overlap.js";

const edit = (path: string, ...ranges: [number, number][]): FileRanges => ({
  path,
  created: false,
  deleted: false,
  ranges: ranges.map(([start, end]) => ({ start, end })),
});

test("sharing a line is contested, a few lines apart is adjacent, far apart is same-file", () => {
  assert.deepEqual(gradeOverlap([edit("a.ts", [10, 12])], [edit("a.ts", [12, 15])], "w2"), [
    { path: "a.ts", grade: "contested", otherWorker: "w2" },
  ]);
  assert.deepEqual(gradeOverlap([edit("a.ts", [10, 12])], [edit("a.ts", [21, 22])], "w2"), [
    { path: "a.ts", grade: "adjacent", otherWorker: "w2" },
  ]);
  assert.deepEqual(gradeOverlap([edit("a.ts", [10, 12])], [edit("a.ts", [22, 22])], "w2"), [
    { path: "a.ts", grade: "same-file", otherWorker: "w2" },
  ]);
});

test("touching ranges with no line between them are contested", () => {
  assert.equal(rangeGap({ start: 5, end: 5 }, { start: 6, end: 9 }), 0);
  assert.equal(gradeOverlap([edit("a.ts", [5, 5])], [edit("a.ts", [6, 9])], "w3")[0]?.grade, "contested");
});

test("a pure insertion contests the lines on both sides of it but not the line before those", () => {
  const insertAfter7 = edit("a.ts", [8, 7]);
  assert.equal(gradeOverlap([insertAfter7], [edit("a.ts", [7, 7])], "w2")[0]?.grade, "contested");
  assert.equal(gradeOverlap([insertAfter7], [edit("a.ts", [8, 8])], "w2")[0]?.grade, "contested");
  assert.equal(gradeOverlap([insertAfter7], [edit("a.ts", [8, 7])], "w2")[0]?.grade, "contested");
  assert.equal(gradeOverlap([insertAfter7], [edit("a.ts", [6, 6])], "w2")[0]?.grade, "adjacent");
});

test("the adjacency window is configurable and defaults to 8 lines", () => {
  const mine = [edit("a.ts", [1, 1])];
  assert.equal(gradeOverlap(mine, [edit("a.ts", [10, 10])], "w2")[0]?.grade, "adjacent");
  assert.equal(gradeOverlap(mine, [edit("a.ts", [11, 11])], "w2")[0]?.grade, "same-file");
  assert.equal(gradeOverlap(mine, [edit("a.ts", [10, 10])], "w2", 2)[0]?.grade, "same-file");
  assert.equal(gradeOverlap(mine, [edit("a.ts", [11, 11])], "w2", 20)[0]?.grade, "adjacent");
});

test("the nearest pair of ranges decides the grade", () => {
  const mine = [edit("a.ts", [1, 2], [100, 101])];
  assert.equal(gradeOverlap(mine, [edit("a.ts", [50, 50], [103, 103])], "w2")[0]?.grade, "adjacent");
  assert.equal(gradeOverlap(mine, [edit("a.ts", [50, 50], [101, 103])], "w2")[0]?.grade, "contested");
});

test("both sides creating the same file is contested", () => {
  const created = (path: string): FileRanges => ({ path, created: true, deleted: false, ranges: [] });
  assert.deepEqual(gradeOverlap([created("new.ts")], [created("new.ts")], "w4"), [
    { path: "new.ts", grade: "contested", otherWorker: "w4" },
  ]);
});

test("a side without ranges (binary, mode-only, pure rename) is graded same-file", () => {
  const binary: FileRanges = { path: "logo.png", created: false, deleted: false, ranges: [], binary: true };
  assert.deepEqual(gradeOverlap([binary], [{ ...binary }], "w2"), [
    { path: "logo.png", grade: "same-file", otherWorker: "w2" },
  ]);
  assert.equal(gradeOverlap([edit("logo.png", [1, 1])], [binary], "w2")[0]?.grade, "same-file");
});

test("only shared paths are reported, in my patch's order", () => {
  const mine = [edit("b.ts", [1, 1]), edit("only-mine.ts", [1, 1]), edit("a.ts", [1, 1])];
  const theirs = [edit("a.ts", [40, 40]), edit("b.ts", [3, 3]), edit("only-theirs.ts", [1, 1])];
  assert.deepEqual(gradeOverlap(mine, theirs, "w9"), [
    { path: "b.ts", grade: "adjacent", otherWorker: "w9" },
    { path: "a.ts", grade: "same-file", otherWorker: "w9" },
  ]);
  assert.deepEqual(gradeOverlap(mine, [], "w9"), []);
});

test("a renamed file is compared with the other side's edits of its old path", () => {
  const renamed: FileRanges = {
    path: "new-name.ts",
    oldPath: "old.ts",
    created: false,
    deleted: false,
    ranges: [{ start: 4, end: 4 }],
  };
  assert.deepEqual(gradeOverlap([renamed], [edit("old.ts", [4, 6])], "w2"), [
    { path: "old.ts", grade: "contested", otherWorker: "w2" },
  ]);
});

test("a deletion contests any edit of the file it deletes", () => {
  const deleted: FileRanges = { path: "x.ts", created: false, deleted: true, ranges: [{ start: 1, end: 30 }] };
  assert.equal(gradeOverlap([deleted], [edit("x.ts", [12, 12])], "w2")[0]?.grade, "contested");
});

test("grading works straight from two parsed git patches", () => {
  const mine = parsePatchRanges(
    "diff --git a/limit.ts b/limit.ts\n--- a/limit.ts\n+++ b/limit.ts\n@@ -8,7 +8,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n",
  );
  const theirs = parsePatchRanges(
    "diff --git a/limit.ts b/limit.ts\n--- a/limit.ts\n+++ b/limit.ts\n@@ -9,3 +9,3 @@\n b\n c\n-d\n+DD\n",
  );
  const findings = gradeOverlap(mine, theirs, "w2");
  assert.deepEqual(findings, [{ path: "limit.ts", grade: "contested", otherWorker: "w2" }]);
  assert.equal(isContestedOverlap(findings), true);
  assert.equal(isContestedOverlap([{ path: "x", grade: "same-file", otherWorker: "w2" }]), false);
});
