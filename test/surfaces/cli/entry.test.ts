// bin/docket.js: node's compile cache and a verb's kept code (bin/kept-code.js) in a folder of Docket's own install (a
// run where it cannot be made works as ever), and each command line on its surface: a worker line's bundle still
// imports what it loads only when it must. Real CLI processes on a copy of the install (so its cache folder is the
// test's own), with the checkout's packages.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, DOCKET_BIN } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";
import type { Hooks } from "../../support/teardown.js";
import { VERSION } from "../../../src/surfaces/shared/version.js";

const PACKAGE = join(DOCKET_BIN, "..", "..");

/** A copy of package.json, bin/ and dist/ beside the checkout's node_modules: an install whose cache folder starts empty. */
function installCopy(t: Hooks): string {
  const root = tempDir(t, "docket-install-");
  cpSync(join(PACKAGE, "package.json"), join(root, "package.json"));
  cpSync(join(PACKAGE, "bin"), join(root, "bin"), { recursive: true });
  cpSync(join(PACKAGE, "dist"), join(root, "dist"), {
    recursive: true,
    filter: (p) => !p.endsWith(join("bundle", "compiled")),
  });
  symlinkSync(join(PACKAGE, "node_modules"), join(root, "node_modules"));
  return root;
}

function run(root: string, cwd: string, ...args: string[]) {
  // No NODE_COMPILE_CACHE of the caller's: that one would win over the install's folder.
  const env = { ...cliEnv({ DOCKET_HOME: join(cwd, "home"), HOME: cwd }), NODE_COMPILE_CACHE: undefined };
  const r = spawnSync(process.execPath, [join(root, "bin", "docket.js"), ...args], { cwd, env, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The files under a folder, recursively, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((p) => statSync(join(dir, p)).isFile());

test("a command's compiled code is kept in the install's own folder, and taken on the next run", (t) => {
  const root = installCopy(t);
  const cwd = tempDir(t);
  const first = run(root, cwd, "ls", "--json");
  assert.deepEqual([first.code, first.stderr, JSON.parse(first.stdout)], [0, "", { workers: [] }]);
  const compiled = join(root, "dist", "bundle", "compiled");
  assert.ok(filesUnder(compiled).length > 0, "nothing kept in dist/bundle/compiled");
  // The verb's own kept code (bin/kept-code.js) is written twice, after its first and its second success.
  const second = run(root, cwd, "ls", "--json");
  assert.deepEqual([second.code, second.stderr, second.stdout], [0, "", first.stdout]);
  const kept = filesUnder(compiled);
  assert.equal(
    kept.filter((p) => /^cli\.ls\.[0-9]+-[0-9]+\.v8-[0-9.a-z-]+\.2\.v8$/.test(p)).length,
    1,
    kept.join(", "),
  );
  const stamps = () => kept.map((p) => statSync(join(compiled, p)).mtimeMs);
  const before = stamps();
  const third = run(root, cwd, "ls", "--json");
  assert.deepEqual([third.code, third.stdout], [0, first.stdout]);
  assert.deepEqual(filesUnder(compiled), kept);
  assert.deepEqual(stamps(), before, "the kept code was taken, not written again");
});

test("where the cache folder cannot be made, a command runs as ever and leaves nothing behind", (t) => {
  const root = installCopy(t);
  const cwd = tempDir(t);
  const bundle = join(root, "dist", "bundle");
  writeFileSync(join(bundle, "compiled"), "a file where the folder would be\n"); // what root's writes cannot pass either
  for (let i = 0; i < 2; i++) {
    const r = run(root, cwd, "ls", "--json");
    assert.deepEqual([r.code, r.stderr, JSON.parse(r.stdout)], [0, "", { workers: [] }]);
  }
  const built = readdirSync(join(PACKAGE, "dist", "bundle")).filter((n) => n !== "compiled");
  assert.deepEqual(readdirSync(bundle).sort(), [...built, "compiled"].sort(), "nothing written beside the bundles");
});

test("each command line runs on its surface, with its exit code: the version, a worker's help through its bundle's import, a mistyped verb", (t) => {
  const root = installCopy(t);
  const cwd = tempDir(t);
  for (const args of [["--version"], ["-V"], ["--json", "--version"]])
    assert.deepEqual(run(root, cwd, ...args), { code: 0, stdout: `${VERSION}\n`, stderr: "" }, args.join(" "));
  // The verb's help is the full worker program's: an ES module beside the worker's bundle, which the bundle imports.
  for (const args of [
    ["worker", "heartbeat", "--help"],
    ["--json", "worker", "heartbeat", "--help"],
  ]) {
    const help = run(root, cwd, ...args);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: docket worker heartbeat/);
  }
  const typo = run(root, cwd, "worker", "heartbaet");
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /unknown command/);
  for (const word of ["lss", "constructor"]) {
    const verb = run(root, cwd, word);
    assert.equal(verb.code, 2, verb.stderr);
    assert.match(verb.stderr, new RegExp(`unknown command '${word}'`));
  }
});
