// Kind directories are untrusted: only safe, regular, reasonably sized *.md files are read, user before project.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadKindFiles, MAX_KIND_FILE_BYTES, scanKindDirs } from "../../src/files/kinds-loader.js";
import { tempDir } from "../support/temp.js";

function dirs(t: Parameters<typeof tempDir>[0]) {
  const root = tempDir(t);
  const user = join(root, "user");
  const project = join(root, "repo", ".docket", "kinds");
  mkdirSync(user, { recursive: true });
  mkdirSync(project, { recursive: true });
  return { root, user, project };
}

test("user files come before project files, each directory in name order", (t) => {
  const { user, project } = dirs(t);
  writeFileSync(join(user, "b.md"), "B");
  writeFileSync(join(user, "a.md"), "A");
  writeFileSync(join(project, "a.md"), "PA");
  assert.deepEqual(loadKindFiles(user, project), [
    { source: "user", path: join(user, "a.md"), text: "A" },
    { source: "user", path: join(user, "b.md"), text: "B" },
    { source: "project", path: join(project, "a.md"), text: "PA" },
  ]);
});

test("missing directories are simply empty", (t) => {
  const root = tempDir(t);
  assert.deepEqual(scanKindDirs(join(root, "nope"), join(root, "also-nope")), { files: [], skipped: [] });
});

test("dot files, non-md files and directories named like kinds are never read", (t) => {
  const { user, project } = dirs(t);
  writeFileSync(join(user, ".hidden.md"), "x");
  writeFileSync(join(user, "notes.txt"), "x");
  writeFileSync(join(user, "kind.md.bak"), "x");
  mkdirSync(join(user, "folder.md"));
  writeFileSync(join(user, "ok.md"), "ok");
  const scan = scanKindDirs(user, project);
  assert.deepEqual(
    scan.files.map((f) => f.path),
    [join(user, "ok.md")],
  );
  assert.deepEqual(scan.skipped, [{ path: join(user, "folder.md"), message: "not a regular file" }]);
});

test("file names that are unsafe as paths are skipped and reported", (t) => {
  const { user, project } = dirs(t);
  writeFileSync(join(user, "we ird.md"), "x");
  writeFileSync(join(user, "-dash.md"), "x");
  writeFileSync(join(user, "a..b.md"), "x");
  const scan = scanKindDirs(user, project);
  assert.deepEqual(scan.files, []);
  assert.deepEqual(
    scan.skipped.map((s) => s.path),
    [join(user, "-dash.md"), join(user, "a..b.md"), join(user, "we ird.md")],
  );
  assert.ok(scan.skipped.every((s) => s.message.startsWith("unsafe file name")));
});

test("oversized files are skipped with their size", (t) => {
  const { user, project } = dirs(t);
  writeFileSync(join(user, "huge.md"), "x".repeat(MAX_KIND_FILE_BYTES + 1));
  writeFileSync(join(user, "edge.md"), "x".repeat(MAX_KIND_FILE_BYTES));
  const scan = scanKindDirs(user, project);
  assert.deepEqual(
    scan.files.map((f) => f.path),
    [join(user, "edge.md")],
  );
  assert.deepEqual(scan.skipped, [
    {
      path: join(user, "huge.md"),
      message: `too large (${MAX_KIND_FILE_BYTES + 1} bytes; a kind file may be at most ${MAX_KIND_FILE_BYTES})`,
    },
  ]);
});

test("a user kind may be a symlink to a file; a project kind may not, so a checkout cannot point outside itself", (t) => {
  const { root, user, project } = dirs(t);
  const target = join(root, "outside.md");
  writeFileSync(target, "outside");
  symlinkSync(target, join(user, "linked.md"));
  symlinkSync(target, join(project, "linked.md"));
  symlinkSync(join(root, "dangling.md"), join(user, "dangling.md"));
  const scan = scanKindDirs(user, project);
  assert.deepEqual(scan.files, [{ source: "user", path: join(user, "linked.md"), text: "outside" }]);
  assert.deepEqual(scan.skipped, [
    { path: join(user, "dangling.md"), message: "unreadable (ENOENT)" },
    { path: join(project, "linked.md"), message: "not a regular file (project kinds may not be symlinks)" },
  ]);
});

test("the same directory given as user and project dir is read once", (t) => {
  const { user } = dirs(t);
  writeFileSync(join(user, "a.md"), "A");
  assert.equal(loadKindFiles(user, user).length, 1);
});
