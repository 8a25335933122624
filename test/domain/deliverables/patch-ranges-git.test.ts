// parsePatchRanges against patches made by the real git in a temp repo (the `-git` twin of the pure test).
// The ranges must name exactly the pre-image lines that the change removed or inserted beside.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/temp.js";
import { git, gitRepo } from "../../support/git.js";
import { parsePatchRanges } from "../../../src/domain/deliverables/patch-ranges.js";

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

test("ranges from real git diffs match the edited lines for edits, renames, deletions, binaries and odd names", (t) => {
  const dir = gitRepo(tempDir(t), {
    "a.txt": numbered(60),
    "b.txt": numbered(10),
    "gone.txt": "x\n",
    "bin.dat": "a\u0000b",
    "ünï code.txt": "u\n",
  });
  git(dir, "config", "core.quotePath", "true");
  const lines = numbered(60).split("\n");
  lines[9] = "changed 10";
  lines.splice(30, 2);
  lines.splice(50, 0, "inserted");
  writeFileSync(join(dir, "a.txt"), lines.join("\n"));
  renameSync(join(dir, "b.txt"), join(dir, "c.txt"));
  writeFileSync(join(dir, "c.txt"), numbered(10).replace("line 7\n", "seven\n"));
  writeFileSync(join(dir, "bin.dat"), "a\u0000c");
  writeFileSync(join(dir, "ünï code.txt"), "v\n");
  writeFileSync(join(dir, "fresh.txt"), "new\n");
  git(dir, "rm", "-q", "gone.txt");
  git(dir, "add", "-A");
  const byPath = new Map(parsePatchRanges(git(dir, "diff", "--cached", "--binary", "-M")).map((f) => [f.path, f]));
  assert.deepEqual(byPath.get("a.txt")?.ranges, [
    { start: 10, end: 10 },
    { start: 31, end: 32 },
    { start: 53, end: 52 },
  ]);
  assert.deepEqual(byPath.get("c.txt"), {
    path: "c.txt",
    oldPath: "b.txt",
    created: false,
    deleted: false,
    ranges: [{ start: 7, end: 7 }],
  });
  assert.deepEqual(byPath.get("bin.dat"), {
    path: "bin.dat",
    created: false,
    deleted: false,
    ranges: [],
    binary: true,
  });
  assert.deepEqual(byPath.get("ünï code.txt")?.ranges, [{ start: 1, end: 1 }]);
  assert.deepEqual(byPath.get("fresh.txt"), { path: "fresh.txt", created: true, deleted: false, ranges: [] });
  assert.deepEqual(byPath.get("gone.txt"), {
    path: "gone.txt",
    created: false,
    deleted: true,
    ranges: [{ start: 1, end: 1 }],
  });
  assert.equal(byPath.size, 6);
});

test("ranges do not depend on how much context git printed", (t) => {
  const dir = gitRepo(tempDir(t), { "f.txt": numbered(40) });
  writeFileSync(join(dir, "f.txt"), numbered(40).replace("line 20\n", "twenty\n").replace("line 22\n", ""));
  const u0 = parsePatchRanges(git(dir, "diff", "-U0"));
  const u3 = parsePatchRanges(git(dir, "diff"));
  const u10 = parsePatchRanges(git(dir, "diff", "-U10"));
  assert.deepEqual(u0[0]?.ranges, [
    { start: 20, end: 20 },
    { start: 22, end: 22 },
  ]);
  assert.deepEqual(u3, u0);
  assert.deepEqual(u10, u0);
});
