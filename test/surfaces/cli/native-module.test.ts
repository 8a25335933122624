// When better-sqlite3's native addon is missing or does not load, every ledger command says so in one line with the
// fix, and --version/--help still work: checked on a copy of the package whose addon is removed or broken.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../../support/temp.js";

const ROOT = resolve(import.meta.dirname, "../../../..");

/** A copy of the package at `dir` sharing node_modules by symlink, except better-sqlite3: its JS without an addon. */
function packageCopy(dir: string, addon: "absent" | "not-loadable" | "built-elsewhere"): string {
  mkdirSync(dir, { recursive: true });
  for (const part of ["package.json", "bin", "dist/src", "dist/bundle"])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  const modules = join(dir, "node_modules");
  mkdirSync(modules);
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name !== "better-sqlite3" && name !== ".bin")
      symlinkSync(join(ROOT, "node_modules", name), join(modules, name));
  }
  const sqlite = join(modules, "better-sqlite3");
  for (const part of ["package.json", "lib"])
    cpSync(join(ROOT, "node_modules/better-sqlite3", part), join(sqlite, part), { recursive: true });
  if (addon === "not-loadable") {
    mkdirSync(join(sqlite, "build/Release"), { recursive: true });
    writeFileSync(join(sqlite, "build/Release/better_sqlite3.node"), "not a shared object\n");
  }
  if (addon === "built-elsewhere") {
    // A debug build: not where the install script puts it, but one of the places `bindings` looks.
    mkdirSync(join(sqlite, "build/Debug"), { recursive: true });
    cpSync(
      join(ROOT, "node_modules/better-sqlite3/build/Release/better_sqlite3.node"),
      join(sqlite, "build/Debug/better_sqlite3.node"),
    );
  }
  return dir;
}

function run(pkg: string, home: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [join(pkg, "bin/docket.js"), ...args], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, DOCKET_HOME: join(home, "docket-home"), LANG: "C.UTF-8" },
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const LEDGER_COMMANDS = [["ls"], ["item", "add", "Fix the login redirect"], ["verdict"], ["log"]];

test("a checkout whose addon was never built: each ledger command prints one line naming npm rebuild and exits 1; --version and --help still work", (t) => {
  const home = tempDir(t);
  const pkg = packageCopy(join(home, "docket"), "absent");
  for (const args of LEDGER_COMMANDS) {
    const r = run(pkg, home, ...args);
    assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "");
    const lines = r.stderr.split("\n").filter(Boolean);
    assert.equal(lines.length, 1, `one line, no stack, from ${args.join(" ")}:\n${r.stderr}`);
    assert.match(
      lines[0],
      /^docket: better-sqlite3's native module was never built \(npm skipped its install script\)/,
    );
    assert.ok(lines[0].includes(`run \`npm rebuild better-sqlite3\` in ${pkg};`), lines[0]);
    assert.match(lines[0], /"allowScripts": \{"better-sqlite3": true\}/);
  }
  const json = run(pkg, home, "item", "add", "Fix the login redirect", "--json");
  assert.equal(json.code, 1);
  assert.equal(json.stderr, "");
  const out = JSON.parse(json.stdout);
  assert.equal(out.error.code, "native-module-missing");
  assert.match(out.error.message, /^better-sqlite3's native module was never built/);
  assert.match(out.error.hint, /npm rebuild better-sqlite3/);
  const version = run(pkg, home, "--version");
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
  const help = run(pkg, home, "--help");
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: docket /);
});

test("an installed package whose addon does not load says so and names the --allow-scripts reinstall", (t) => {
  const home = tempDir(t);
  const pkg = packageCopy(join(home, "prefix/lib/node_modules/docket"), "not-loadable");
  const r = run(pkg, home, "ls");
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stderr.split("\n").filter(Boolean);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^docket: better-sqlite3's native module does not load in this Node\.js/);
  assert.ok(lines[0].includes(`npm rebuild better-sqlite3\` in ${pkg}`), lines[0]);
  assert.ok(lines[0].includes("npm install -g <docket> --allow-scripts=better-sqlite3"), lines[0]);
});

test("an addon built where the install script does not put it is still found, from better-sqlite3's own folder", (t) => {
  const home = tempDir(t);
  const pkg = packageCopy(join(home, "docket"), "built-elsewhere");
  const r = run(pkg, home, "ls", "--json");
  assert.deepEqual([r.code, r.stderr, JSON.parse(r.stdout)], [0, "", { workers: [] }]);
});
