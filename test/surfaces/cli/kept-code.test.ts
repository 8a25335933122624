// bin/kept-code.js: a bundle run with the code V8 compiled on a verb's earlier runs, kept beside it. Real files in a
// temp folder, each run in its own process through the module itself: the first success keeps the code, the next takes it and
// keeps the union, a changed bundle or a refused file starts over, and where nothing can be written nothing is.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { DOCKET_BIN } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";

const KEPT = join(DOCKET_BIN, "..", "kept-code.js");

/** One command's run in its own process (as bin/docket.js runs it): the bundle's main, then `keep()`; what it printed. */
function runKept(file: string, verb: string | undefined, n: number): string {
  const script = `const k = require(${JSON.stringify(KEPT)}).requireKept(${JSON.stringify(file)}, ${JSON.stringify(verb)});
k.exports.main(${n}).then((out) => { console.log(out); k.keep(); });`;
  const r = spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

/** A bundle-like CommonJS file: a neighbour by `require`, an ES module by a relative `import()`, functions run late. */
function bundleIn(dir: string, tag = "a"): string {
  writeFileSync(join(dir, "neighbour.cjs"), "exports.twice = (n) => 2 * n;\n");
  writeFileSync(join(dir, "late.mjs"), "export const word = 'late';\n");
  const file = join(dir, "cli.cjs");
  writeFileSync(
    file,
    `"use strict";const { twice } = require("./neighbour.cjs");` +
      `function square(n) { return n * n; }\n` +
      `exports.main = async (n) => \`${tag} \${twice(n)} \${square(n)} \${(await import("./late.mjs")).word} \${require("node:path").basename(__filename)}\`;\n`,
  );
  return file;
}

const keptFiles = (dir: string) => {
  try {
    return readdirSync(join(dir, "compiled")).sort();
  } catch {
    return [];
  }
};

test("a verb's code is kept after its first success, the union after its second, and then only taken", async (t) => {
  const dir = tempDir(t);
  const file = bundleIn(dir);
  const { size, mtimeMs } = statSync(file);
  const stem = `cli.verdict.${size}-${Math.trunc(mtimeMs)}.v8-${process.versions.v8}`;

  const first = runKept(file, "verdict", 3);
  assert.equal(first, "a 6 9 late cli.cjs", "exports, a neighbour, a relative import() and __filename");
  assert.deepEqual(keptFiles(dir), [`${stem}.1.v8`]);

  assert.equal(runKept(file, "verdict", 4), "a 8 16 late cli.cjs");
  assert.deepEqual(keptFiles(dir), [`${stem}.2.v8`], "the union replaces the first");
  const union = readFileSync(join(dir, "compiled", `${stem}.2.v8`));

  assert.equal(runKept(file, "verdict", 5), "a 10 25 late cli.cjs");
  assert.deepEqual(keptFiles(dir), [`${stem}.2.v8`]);
  assert.deepEqual(readFileSync(join(dir, "compiled", `${stem}.2.v8`)), union, "taken, not written again");

  // Another verb keeps its own.
  runKept(file, "ls", 1);
  assert.deepEqual(keptFiles(dir), [
    `cli.ls.${size}-${Math.trunc(mtimeMs)}.v8-${process.versions.v8}.1.v8`,
    `${stem}.2.v8`,
  ]);
});

test("a rebuilt bundle never takes another's code, and a refused file is replaced where it is", async (t) => {
  const dir = tempDir(t);
  const file = bundleIn(dir);
  runKept(file, "verdict", 1);
  const [old] = keptFiles(dir);
  bundleIn(dir, "rebuilt");
  utimesSync(file, new Date(), new Date(Date.now() + 5_000));
  const { size, mtimeMs } = statSync(file);
  const stem = `cli.verdict.${size}-${Math.trunc(mtimeMs)}.v8-${process.versions.v8}`;
  assert.equal(runKept(file, "verdict", 2), "rebuilt 4 4 late cli.cjs");
  assert.deepEqual(keptFiles(dir), [old, `${stem}.1.v8`].sort());

  // Bytes V8 refuses (not its code at all) cost only the compile; the file is then written with good code.
  const other = tempDir(t);
  const fresh = bundleIn(other, "fresh");
  const at = statSync(fresh);
  const refusedPath = join(
    other,
    "compiled",
    `cli.verdict.${at.size}-${Math.trunc(at.mtimeMs)}.v8-${process.versions.v8}.1.v8`,
  );
  mkdirSync(join(other, "compiled"));
  writeFileSync(refusedPath, "not V8's code cache\n");
  assert.equal(runKept(fresh, "verdict", 1), "fresh 2 1 late cli.cjs");
  assert.notEqual(readFileSync(refusedPath, "utf8"), "not V8's code cache\n");
  assert.deepEqual(keptFiles(other).length, 1, "a refused first file is replaced, not taken as a union");
});

test("no verb, a word that is not a verb's name, or a folder that cannot be made: the bundle runs and nothing is kept", async (t) => {
  const dir = tempDir(t);
  const file = bundleIn(dir);
  for (const verb of [undefined, "../../escape", "Verdict", "-C", "a".repeat(40)]) {
    assert.equal(runKept(file, verb, 3), "a 6 9 late cli.cjs", String(verb));
  }
  assert.deepEqual(keptFiles(dir), []);

  const blocked = tempDir(t);
  const other = bundleIn(blocked);
  writeFileSync(join(blocked, "compiled"), "a file where the folder would be\n");
  assert.equal(runKept(other, "verdict", 3), "a 6 9 late cli.cjs");
  assert.deepEqual(readdirSync(blocked).sort(), ["cli.cjs", "compiled", "late.mjs", "neighbour.cjs"]);

  // A folder it may not write in (a read-only install): no temp file is left either.
  const readOnly = tempDir(t);
  const third = bundleIn(readOnly);
  mkdirSync(join(readOnly, "compiled"), { mode: 0o555 });
  runKept(third, "verdict", 1);
  if (process.getuid?.() !== 0) assert.deepEqual(keptFiles(readOnly), []);
});
