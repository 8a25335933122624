// quotePath writes a path exactly as git itself does with core.quotePath on: checked against `git ls-files` on a real
// repository holding newlines, quotes, backslashes, controls, non-ASCII, bidi and zero-width characters in file names.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { quotePath } from "../../../src/domain/text/quote-path.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

const NAMES = [
  "plain/file.ts",
  "with space.md",
  "a\nb.md",
  "cr\r\nlf.md",
  'say "hi".txt',
  "back\\slash.txt",
  "tab\there.txt",
  "bell\x07esc\x1b[2K.txt",
  "del\x7f.txt",
  "café.md",
  "\u202etxt.exe",
  "zero\u200bwidth.ts",
  "line\u2028sep.md",
];

test("every name is quoted byte for byte as git ls-files quotes it, and a quoted name is one line", (t) => {
  const repo = gitRepo(tempDir(t, "docket-quote-"));
  for (const name of NAMES) {
    mkdirSync(dirname(join(repo, name)), { recursive: true });
    writeFileSync(join(repo, name), "x\n");
  }
  git(repo, "add", "-A");
  const listed = git(repo, "-c", "core.quotePath=true", "ls-files")
    .split("\n")
    .filter((l) => l !== "" && l !== "README.md")
    .sort();
  assert.deepEqual(NAMES.map(quotePath).sort(), listed);
  for (const name of NAMES)
    assert.doesNotMatch(quotePath(name), /[\n\r\u2028\u2029\u0085]/, `${JSON.stringify(name)} stays on one line`);
  assert.equal(quotePath("src/a.ts"), "src/a.ts", "a harmless path is left as it is");
});
