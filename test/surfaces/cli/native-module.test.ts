// When better-sqlite3's native addon is missing or does not load, every ledger command says so in one line with the
// fix, and --version/--help still work: checked on a copy of the package whose addon is removed or broken, and under
// another Node.js (Node 20 at /usr/bin/node here) against the addon built for the Node running the tests.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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

/** Another Node.js on this machine, with its ABI: Node 20 at /usr/bin/node here (undefined when it is not there). */
function otherNode(): { node: string; version: string; abi: string; prefix: string } | undefined {
  const node = "/usr/bin/node";
  const r = spawnSync(node, ["-p", "[process.version, process.versions.modules, process.execPath].join(' ')"], {
    encoding: "utf8",
  });
  if (r.status !== 0) return undefined;
  const [version, abi, execPath] = r.stdout.trim().split(" ");
  if (abi === process.versions.modules) return undefined;
  return { node, version: version!, abi: abi!, prefix: dirname(dirname(realpathSync(execPath!))) };
}

test("under another Node.js the error names both Nodes and the rebuild against the running Node's own headers; doctor warns", (t) => {
  const other = otherNode();
  if (!other) return t.skip("no Node.js with another ABI at /usr/bin/node on this machine");
  const home = tempDir(t);
  const env = { PATH: process.env.PATH, HOME: home, DOCKET_HOME: join(home, "docket-home"), LANG: "C.UTF-8" };
  const under = (...args: string[]) =>
    spawnSync(other.node, [join(ROOT, "bin/docket.js"), ...args], { cwd: home, env, encoding: "utf8" });
  for (const args of LEDGER_COMMANDS) {
    const r = under(...args);
    assert.equal(r.status, 1, `${args.join(" ")}: ${r.stderr}`);
    const lines = r.stderr.split("\n").filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(
      lines[0]!.startsWith(
        `docket: better-sqlite3's native module was built for Node ${process.versions.node.split(".")[0]} (NODE_MODULE_VERSION ${process.versions.modules}), but this is Node ${other.version} (NODE_MODULE_VERSION ${other.abi}, ${other.node})`,
      ),
      lines[0],
    );
    assert.ok(
      lines[0]!.includes(`\`cd ${ROOT} && npm_config_nodedir=${other.prefix} npm rebuild better-sqlite3\``),
      lines[0],
    );
  }
  const json = JSON.parse(under("ls", "--json").stdout);
  assert.equal(json.error.code, "native-module-abi");
  const doctor = JSON.parse(under("doctor", "--json").stdout).error; // a problem found: the report rides in the refusal
  const node = doctor.findings.find((f: { check: string }) => f.check === "node");
  assert.equal(node.severity, "warning");
  assert.match(
    node.message,
    new RegExp(
      `^Node ${other.version.replace(/\./g, "\\.")} .* is not supported: Docket runs under Node \\^22\\.12 \\|\\| \\^24`,
    ),
  );
  const sqlite = doctor.findings.find((f: { check: string }) => f.check === "sqlite");
  assert.equal(sqlite.severity, "problem", "the ledger's checks say why they could not run");
  const here = spawnSync(process.execPath, [join(ROOT, "bin/docket.js"), "doctor", "--json"], {
    cwd: home,
    env,
    encoding: "utf8",
  });
  const ours = JSON.parse(here.stdout).findings.find((f: { check: string }) => f.check === "node");
  assert.deepEqual(
    [ours.severity, ours.message],
    ["ok", `Node ${process.version} (NODE_MODULE_VERSION ${process.versions.modules}, ${process.execPath})`],
  );
});
