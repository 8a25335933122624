// A frozen patch as per-file review data, on real `git diff` output made with the capture's own flags
// (`--binary --no-renames`): statuses, modes, binary files, exact renames, quoted names, numbered lines, hidden context.

import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contextGaps, parseDiffFiles } from "../../../src/domain/deliverables/diff-files.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

const FORTY = `${Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

function frozenPatch(
  t: { after(fn: () => void): void },
  edit: (dir: string) => void,
  files: Record<string, string>,
): string {
  const dir = gitRepo(tempDir(t, "docket-diff-files-"), files);
  edit(dir);
  git(dir, "add", "-A");
  return git(dir, "diff", "--cached", "--binary", "--no-renames", "--no-color", "--src-prefix=a/", "--dst-prefix=b/");
}

test("each file of a frozen patch comes out with its status, mode change, binary flag and counts", (t) => {
  const patch = frozenPatch(
    t,
    (dir) => {
      writeFileSync(join(dir, "app.txt"), FORTY.replace("line 2\n", "two\n").replace("line 30\n", "thirty\n"));
      writeFileSync(join(dir, "added.ts"), "export const a = 1;\n");
      rmSync(join(dir, "gone.txt"));
      chmodSync(join(dir, "run.sh"), 0o755);
      writeFileSync(join(dir, "logo.bin"), Buffer.from([0, 1, 2, 3, 0, 255]));
    },
    { "app.txt": FORTY, "gone.txt": "bye\n", "run.sh": "echo hi\n" },
  );
  const files = parseDiffFiles(patch);
  const by = new Map(files.map((f) => [f.path, f]));
  assert.deepEqual(
    files.map((f) => f.path),
    ["added.ts", "app.txt", "gone.txt", "logo.bin", "run.sh"],
  );
  assert.deepEqual(
    files.map((f) => f.index),
    [0, 1, 2, 3, 4],
  );
  assert.equal(by.get("added.ts")!.status, "added");
  assert.deepEqual(
    [
      by.get("app.txt")!.status,
      by.get("app.txt")!.additions,
      by.get("app.txt")!.deletions,
      by.get("app.txt")!.hunks.length,
    ],
    ["modified", 2, 2, 2],
  );
  assert.equal(by.get("gone.txt")!.status, "deleted");
  assert.deepEqual([by.get("logo.bin")!.binary, by.get("logo.bin")!.hunks.length], [true, 0]);
  const run = by.get("run.sh")!;
  assert.deepEqual([run.modeChanged, run.mode, run.hunks.length], [true, { old: "100644", new: "100755" }, 0]);
});

test("hunk lines carry old and new line numbers, and the lines between hunks are offered as context gaps", (t) => {
  const patch = frozenPatch(
    t,
    (dir) => writeFileSync(join(dir, "app.txt"), FORTY.replace("line 2\n", "two\nand more\n").replace("line 30\n", "")),
    { "app.txt": FORTY },
  );
  const [f] = parseDiffFiles(patch);
  const [first, second] = f!.hunks;
  assert.deepEqual(
    first!.lines.map((l) => [l.kind, l.oldNo, l.newNo, l.text]),
    [
      ["context", 1, 1, "line 1"],
      ["del", 2, null, "line 2"],
      ["add", null, 2, "two"],
      ["add", null, 3, "and more"],
      ["context", 3, 4, "line 3"],
      ["context", 4, 5, "line 4"],
      ["context", 5, 6, "line 5"],
    ],
  );
  assert.deepEqual(
    second!.lines.filter((l) => l.kind === "del").map((l) => [l.oldNo, l.text]),
    [[30, "line 30"]],
  );
  assert.deepEqual(contextGaps(f!), [
    { before: 1, oldFrom: 6, oldTo: 26, newFrom: 7 },
    { before: 2, oldFrom: 34, oldTo: null, newFrom: 34 },
  ]);
});

test("a moved file, frozen as a deletion and an addition of the same blob, is shown as one exact rename", (t) => {
  const patch = frozenPatch(
    t,
    (dir) => {
      renameSync(join(dir, "old-name.txt"), join(dir, "new-name.txt"));
      renameSync(join(dir, "edited.txt"), join(dir, "edited-too.txt"));
      writeFileSync(join(dir, "edited-too.txt"), "changed\n");
    },
    { "old-name.txt": "same content\n", "edited.txt": "before\n" },
  );
  const files = parseDiffFiles(patch);
  const renamed = files.find((f) => f.status === "renamed")!;
  assert.deepEqual(
    [renamed.oldPath, renamed.path, renamed.similarity, renamed.hunks.length, renamed.modeChanged],
    ["old-name.txt", "new-name.txt", 100, 0, false],
  );
  assert.deepEqual(
    files.filter((f) => f.status !== "renamed").map((f) => [f.status, f.path]),
    [
      ["added", "edited-too.txt"],
      ["deleted", "edited.txt"],
    ],
    "an edited move stays a deletion and an addition",
  );
});

test("quoted names and a missing final newline are read exactly", (t) => {
  const name = 'we "ird" <b>.txt';
  const patch = frozenPatch(t, (dir) => writeFileSync(join(dir, name), "a\nB"), { [name]: "a\nb\n" });
  const [f] = parseDiffFiles(patch);
  assert.equal(f!.path, name);
  const last = f!.hunks[0]!.lines.at(-1)!;
  assert.deepEqual([last.kind, last.text, last.noEol], ["add", "B", true]);
  assert.equal(
    f!.hunks[0]!.lines.find((l) => l.kind === "del" && l.text === "b")?.noEol,
    undefined,
    "the old last line had its newline",
  );
});
