// Compare stats from frozen file lists alone: sizes per candidate, the files only one touched, and each pair's shared
// files; a candidate with no version counts as touching nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveCompareStats } from "../../../src/domain/groups/compare-stats.js";

const f = (path: string, additions = 1, deletions = 0) => ({ path, additions, deletions });

test("sizes, files only one candidate touched, and the pairwise overlap", () => {
  const stats = resolveCompareStats([
    { worker: "w1", files: [f("a.txt", 3, 1), f("shared.txt", 2, 2)], hunks: 3 },
    { worker: "w2", files: [f("b.txt"), f("shared.txt"), f("both.txt")], hunks: 4 },
    { worker: "w3", files: [f("both.txt", 5, 0), f("c.txt")], hunks: 2 },
    { worker: "w4", files: null, hunks: 9 },
  ]);
  assert.deepEqual(stats.candidates, [
    { worker: "w1", files: 2, additions: 5, deletions: 3, hunks: 3, onlyHere: ["a.txt"] },
    { worker: "w2", files: 3, additions: 3, deletions: 0, hunks: 4, onlyHere: ["b.txt"] },
    { worker: "w3", files: 2, additions: 6, deletions: 0, hunks: 2, onlyHere: ["c.txt"] },
    { worker: "w4", files: 0, additions: 0, deletions: 0, hunks: 0, onlyHere: [] },
  ]);
  assert.deepEqual(stats.overlaps, [
    { a: "w1", b: "w2", files: ["shared.txt"] },
    { a: "w2", b: "w3", files: ["both.txt"] },
  ]);
});

test("candidates that changed disjoint files have no overlap and every file is only theirs", () => {
  const stats = resolveCompareStats([
    { worker: "w1", files: [f("x")], hunks: 1 },
    { worker: "w2", files: [f("y")], hunks: 1 },
  ]);
  assert.deepEqual(stats.overlaps, []);
  assert.deepEqual(
    stats.candidates.map((c) => c.onlyHere),
    [["x"], ["y"]],
  );
});
