// Docket installed as users install it: the packed tarball, installed globally with npm's --allow-scripts, runs
// `docket --version`, `demo` and `ls`; the installed folder added with `pi install` registers /docket in a real pi.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../support/temp.js";
import { PI_CLI, startPiRpc } from "../support/pi-rpc.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
/** What the tarball may hold: the manifest, the README, the entries, compiled modules and the review page's assets (no maps, tests, sources). */
const SHIPPED =
  /^package\/(package\.json|README\.md|bin\/(docket(-web)?|kept-code)\.js|bin\/package\.json|bin\/shim\/docket|dist\/src\/[\w/.-]+\.js|dist\/bundle\/[\w.-]+\.cjs|src\/surfaces\/web\/assets\/[\w.-]+)$/;

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const r = spawnSync(command, args, { ...options, encoding: "utf8", timeout: 20 * 60_000, maxBuffer: 64 << 20 });
  const said = `${command} ${args.join(" ")} exited ${r.status} ${r.signal ?? ""}\n${r.stdout}\n${r.stderr}`;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, said };
}

test("the packed tarball installs globally with --allow-scripts=better-sqlite3, runs the demo, and pi install registers /docket", {
  timeout: 30 * 60_000,
}, async (t) => {
  const dir = tempDir(t, "docket-install-");
  const [home, tmp, prefix, agentDir] = ["home", "tmp", "prefix", "agent"].map((d) => join(dir, d));
  for (const d of [home, tmp]) mkdirSync(d);
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, DOCKET_HOME: join(home, "docket") };
  for (const name of [
    "DOCKET_WORKER_ID",
    "DOCKET_GENERATION",
    "DOCKET_RUN_TOKEN",
    "DOCKET_TMUX_SOCKET",
    "PI_CODING_AGENT_DIR",
  ])
    delete env[name];
  const npmVersion = run("npm", ["--version"], { cwd: dir, env }).stdout.trim();
  console.log(`# node ${process.version}, npm ${npmVersion}`);

  const packed = run("npm", ["pack", "--pack-destination", dir, "--silent"], { cwd: ROOT, env });
  assert.equal(packed.code, 0, packed.said);
  const tarball = join(dir, readdirSync(dir).find((f) => f.endsWith(".tgz"))!);
  const entries = run("tar", ["-tzf", tarball], { cwd: dir, env })
    .stdout.split("\n")
    .filter((e) => e && !e.endsWith("/"));
  console.log(`# tarball ${tarball.split("/").pop()}: ${statSync(tarball).size} bytes, ${entries.length} files`);
  assert.deepEqual(
    entries.filter((e) => !SHIPPED.test(e)),
    [],
    "the tarball holds only what runs",
  );
  for (const needed of [
    "package/bin/docket.js",
    "package/bin/kept-code.js", // the CLI's bundle runs through it
    "package/bin/shim/docket", // the `docket` a worker finds on its PATH
    "package/dist/src/surfaces/cli/main.js",
    "package/dist/src/surfaces/pi/extension.js",
    "package/dist/bundle/worker.cjs",
  ])
    assert.ok(entries.includes(needed), needed);

  const installed = run(
    "npm",
    [
      "install",
      "-g",
      tarball,
      "--prefix",
      prefix,
      "--allow-scripts=better-sqlite3",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
    ],
    { cwd: dir, env },
  );
  assert.equal(installed.code, 0, installed.said);
  assert.doesNotMatch(
    installed.stdout + installed.stderr,
    /^npm warn install-scripts +better-sqlite3@/m,
    "better-sqlite3's build ran",
  );
  const pkg = join(prefix, "lib/node_modules/docket");
  assert.ok(existsSync(join(pkg, "node_modules/better-sqlite3/build/Release/better_sqlite3.node")), installed.said);
  assert.ok(!existsSync(join(pkg, "node_modules/typescript")), "no devDependencies in a global install");

  const docket = (...args: string[]) =>
    run(join(prefix, "bin/docket"), args, { cwd: home, env: { ...env, PATH: `${join(prefix, "bin")}:${env.PATH}` } });
  const version = docket("--version");
  assert.equal(version.code, 0, version.said);
  assert.equal(version.stdout.trim(), VERSION);
  // A worker's `docket` by name: the installed shim runs the node and Docket its launch names.
  const shim = run(join(pkg, "bin/shim/docket"), ["--version"], {
    cwd: home,
    env: { ...env, DOCKET_NODE: process.execPath, DOCKET_BIN: join(pkg, "bin/docket.js") },
  });
  assert.equal(shim.code, 0, shim.said);
  assert.equal(shim.stdout.trim(), VERSION);
  const demo = docket("demo");
  assert.equal(demo.code, 0, demo.said);
  assert.match(demo.stdout, /Done in .*3 files promoted, 4 decisions recorded/, demo.said);
  const demoHome = /DOCKET_HOME=(\S+) docket ls --all/.exec(demo.stdout)?.[1];
  assert.ok(demoHome?.startsWith(tmp), demo.said);
  const listed = run(join(prefix, "bin/docket"), ["ls", "--all", "--json"], {
    cwd: home,
    env: { ...env, DOCKET_HOME: demoHome },
  });
  assert.equal(listed.code, 0, listed.said);
  assert.deepEqual(
    JSON.parse(listed.stdout)
      .workers.map((w: { worker: string }) => w.worker)
      .sort(),
    ["w1", "w2"],
    listed.said,
  );
  const empty = docket("ls");
  assert.equal(empty.code, 0, empty.said);
  assert.match(empty.stdout, /^no workers/);

  const piEnv: NodeJS.ProcessEnv = { ...env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" };
  const added = run(process.execPath, [PI_CLI, "install", pkg], { cwd: home, env: piEnv });
  assert.equal(added.code, 0, added.said);
  const pi = startPiRpc(t, {
    cwd: home,
    env: piEnv,
    args: [
      PI_CLI,
      "-ns",
      "-np",
      "-nc",
      "--no-themes",
      "-e",
      join(pkg, "dist/src/surfaces/pi/scripted-model.js"),
      "--model",
      "docket-demo/scripted",
      "--no-session",
      "--mode",
      "rpc",
    ],
  });
  const commands = await pi.call({ type: "get_commands" });
  const registered = commands.data.commands.find((c: { name: string }) => c.name === "docket");
  assert.ok(registered, `no /docket among ${JSON.stringify(commands.data)}\n${pi.stderr()}`);
  assert.equal(registered.source, "extension");
  assert.equal(
    registered.sourceInfo?.path,
    join(pkg, "dist/src/surfaces/pi/extension.js"),
    "loaded from the installed package",
  );
  const from = pi.seen.length;
  const ls = await pi.call({ type: "prompt", message: "/docket ls" });
  assert.equal(ls.success, true, JSON.stringify(ls));
  const shown = pi.ui("notify", from).map((m) => String(m.message));
  assert.ok(
    shown.some((m) => m.startsWith("no workers")),
    `the installed extension reads its ledger: ${JSON.stringify(shown)}`,
  );
});
