// bin/docket.js keeps the code V8 compiled for a verb and hands it back on the verb's next run: written after its
// first two runs, then only taken; replaced when V8 refuses it, never taken for a changed bundle. Real CLI processes on
// a copy of the install (so its cache folder is the test's own), with the checkout's packages.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Script } from "node:vm";
import { cliEnv, DOCKET_BIN } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";
import type { Hooks } from "../../support/teardown.js";

const PACKAGE = join(DOCKET_BIN, "..", "..");

/** A copy of bin/ and dist/ beside the checkout's node_modules: an install whose cache folder starts empty. */
function installCopy(t: Hooks): string {
  const root = tempDir(t, "docket-install-");
  cpSync(join(PACKAGE, "bin"), join(root, "bin"), { recursive: true });
  cpSync(join(PACKAGE, "dist"), join(root, "dist"), {
    recursive: true,
    filter: (p) => !p.endsWith(join("bundle", "compiled")),
  });
  symlinkSync(join(PACKAGE, "node_modules"), join(root, "node_modules"));
  return root;
}

function run(root: string, cwd: string, ...args: string[]) {
  const env = cliEnv({ DOCKET_HOME: join(cwd, "home"), HOME: cwd });
  const r = spawnSync(process.execPath, [join(root, "bin", "docket.js"), ...args], { cwd, env, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const kept = (root: string, prefix: string) =>
  readdirSync(join(root, "dist", "bundle", "compiled")).filter((n) => n.startsWith(prefix) && n.endsWith(".v8"));

/** Whether V8 takes the kept bytes for the bundle as bin/docket.js wraps it. */
function accepted(root: string, bundle: string, cache: string): boolean {
  const file = join(root, "dist", "bundle", `${bundle}.cjs`);
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  const cachedData = readFileSync(join(root, "dist", "bundle", "compiled", cache));
  return !new Script(source, { filename: file, cachedData }).cachedDataRejected;
}

test("a verb's compiled code is kept after its first two runs and then taken, not rewritten", (t) => {
  const root = installCopy(t);
  const cwd = tempDir(t);
  const first = run(root, cwd, "ls", "--json");
  assert.deepEqual([first.code, first.stderr, JSON.parse(first.stdout)], [0, "", { workers: [] }]);
  const [once, ...more] = kept(root, "cli.ls.");
  assert.match(once ?? "", /\.1\.v8$/, "no compiled code kept for `ls`");
  assert.deepEqual(more, []);
  assert.equal(accepted(root, "cli", once!), true);
  // The second run takes the first's code and keeps the union of both (what it compiled besides).
  const second = run(root, cwd, "ls", "--json");
  assert.deepEqual([second.code, second.stdout], [first.code, first.stdout]);
  const [union, ...others] = kept(root, "cli.ls.");
  assert.match(union ?? "", /\.2\.v8$/, "the second run kept no union");
  assert.deepEqual(others, [], "the union replaces the first");
  assert.equal(accepted(root, "cli", union!), true);
  const stamps = () => kept(root, "cli.ls.").map((n) => statSync(join(root, "dist", "bundle", "compiled", n)));
  const before = stamps().map((s) => [s.ino, s.mtimeMs]);
  const third = run(root, cwd, "ls", "--json");
  assert.deepEqual([third.code, third.stdout], [first.code, first.stdout]);
  assert.deepEqual(
    stamps().map((s) => [s.ino, s.mtimeMs]),
    before,
    "taken code was written again",
  );
  // Each verb keeps its own: another verb's run leaves `ls`'s as they were.
  assert.equal(run(root, cwd, "help").code, 0);
  assert.equal(kept(root, "cli.help.").length, 1);
  assert.deepEqual(
    stamps().map((s) => [s.ino, s.mtimeMs]),
    before,
  );
});

test("kept code V8 refuses is replaced; a changed bundle never takes the code kept for the old one", (t) => {
  const root = installCopy(t);
  const cwd = tempDir(t);
  const first = run(root, cwd, "ls", "--json");
  run(root, cwd, "ls", "--json");
  const union = kept(root, "cli.ls.").find((n) => n.endsWith(".2.v8"));
  assert.ok(union);
  writeFileSync(join(root, "dist", "bundle", "compiled", union), "not V8's code cache");
  const garbled = run(root, cwd, "ls", "--json");
  assert.deepEqual([garbled.code, garbled.stderr, garbled.stdout], [0, "", first.stdout]);
  assert.equal(accepted(root, "cli", union), true, "refused code was not replaced");

  appendFileSync(join(root, "dist", "bundle", "cli.cjs"), "\n// changed\n");
  const changed = run(root, cwd, "ls", "--json");
  assert.deepEqual([changed.code, changed.stdout], [0, first.stdout]);
  const fresh = kept(root, "cli.ls.").filter((n) => !n.startsWith(union.replace(/\.2\.v8$/, ".")));
  assert.equal(fresh.length, 1, `the changed bundle's own code: ${fresh.join(", ")}`);
  assert.match(fresh[0]!, /\.1\.v8$/);
  assert.equal(accepted(root, "cli", fresh[0]!), true);
});

test("a worker call's bundle, run from its kept code, still imports what it loads only when it must", (t) => {
  const root = installCopy(t);
  const cwd = tempDir(t);
  // The verb's help is the full worker program's (an ES module beside the bundle, imported through bin/docket.js).
  for (let i = 0; i < 2; i++) {
    const help = run(root, cwd, "worker", "heartbeat", "--help");
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: docket worker heartbeat/);
  }
  const [file, ...more] = kept(root, "worker.worker-heartbeat.");
  assert.match(file ?? "", /\.2\.v8$/);
  assert.deepEqual(more, []);
  assert.equal(accepted(root, "worker", file!), true);
  // A line that fails keeps nothing: a mistyped verb leaves no file behind.
  const typo = run(root, cwd, "worker", "heartbaet");
  assert.notEqual(typo.code, 0);
  assert.match(typo.stderr, /unknown command/);
  assert.deepEqual(kept(root, "worker.worker-heartbaet."), []);
});

test("where the cache folder cannot be made, a verb runs as ever and leaves nothing behind", (t) => {
  const root = installCopy(t);
  const cwd = tempDir(t);
  const bundle = join(root, "dist", "bundle");
  writeFileSync(join(bundle, "compiled"), "a file where the folder would be\n"); // what root's writes cannot pass either
  for (let i = 0; i < 2; i++) {
    const r = run(root, cwd, "ls", "--json");
    assert.deepEqual([r.code, r.stderr, JSON.parse(r.stdout)], [0, "", { workers: [] }]);
  }
  assert.deepEqual(
    readdirSync(bundle).filter((n) => n.includes(".tmp")),
    [],
  );
});
