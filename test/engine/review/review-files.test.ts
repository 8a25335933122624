// A page's frozen diff, built per file: every head up front without rows, and each file's rows when asked — the same
// files, head for head and row for row, as the whole parse every other surface shows. A real git patch.

import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkerDeliverable } from "../../../src/domain/deliverables/deliverable.js";
import { diffLineCount } from "../../../src/domain/deliverables/diff-files.js";
import { patchFilesOf } from "../../../src/engine/review/comments.js";
import { everyFile, reviewFilesOf } from "../../../src/engine/review/review-files.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

const numbered = (n: number, tag: string) => `${Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join("\n")}\n`;

function patchOfEveryKind(t: Parameters<typeof tempDir>[0]): string {
  const repo = gitRepo(tempDir(t), {
    "a.txt": numbered(40, "a"),
    "moved.txt": numbered(5, "m"),
    "gone.txt": "bye\n",
    "run.sh": "echo\n",
    "b.txt": numbered(3, "b"),
  });
  const a = numbered(40, "a").split("\n");
  a[2] = "changed 3";
  a[30] = "changed 31";
  writeFileSync(join(repo, "a.txt"), a.join("\n"));
  renameSync(join(repo, "moved.txt"), join(repo, "dir-moved.txt"));
  rmSync(join(repo, "gone.txt"));
  chmodSync(join(repo, "run.sh"), 0o755);
  writeFileSync(join(repo, "new.bin"), Buffer.from([0, 1, 2, 3, 255]));
  writeFileSync(join(repo, "b.txt"), "b 1\nb 2\nb 3");
  git(repo, "add", "-A");
  return git(repo, "diff", "--cached", "--no-renames", "--binary", "HEAD");
}

test("heads come without rows; each file's rows, asked for, are the whole parse's; renames pair as before", (t) => {
  const patch = patchOfEveryKind(t);
  const d = { changeSet: { patch, files: [] } } as unknown as WorkerDeliverable;
  const whole = patchFilesOf({ ...d } as WorkerDeliverable);
  const files = reviewFilesOf(d);
  assert.equal(files.heads.length, whole.length);
  assert.ok(
    whole.some((f) => f.status === "renamed") && whole.some((f) => f.binary) && whole.some((f) => f.modeChanged),
    "the patch holds every kind",
  );
  whole.forEach((f, i) => {
    const { hunks, ...head } = f;
    const { hunks: headHunks, lineCount, ...got } = files.heads[i]!;
    assert.deepEqual(got, head, `head ${i} (${f.path})`);
    assert.equal(lineCount, diffLineCount(f), `${f.path}'s line count`);
    assert.deepEqual(
      headHunks,
      hunks.map(({ lines: _, ...h }) => h),
      `${f.path}'s hunk headers`,
    );
  });
  assert.deepEqual(files.file(2), whole[2], "one file asked for");
  assert.deepEqual(everyFile(files), whole);
  assert.equal(files.file(whole.length), undefined);
  assert.equal(reviewFilesOf(d), files, "built once per read sidecar");
});
