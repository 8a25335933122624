// What `docket` start-up may load: `--version` and `--help` never load SQLite nor touch DOCKET_HOME, and a command
// line loads only its own verb's group. Real CLI processes, with a loader hook that logs or refuses modules.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, DOCKET_BIN } from "../../support/docket-cli.js";
import { fileURLToPath } from "node:url";
import { gitRepo } from "../../support/git.js";
import { runLoggingModules } from "../../support/module-log.js";
import { tempDir } from "../../support/temp.js";
import { VERSION } from "../../../src/surfaces/shared/version.js";

/** The CLI from its compiled modules (test/support/cli-unbundled.ts): what a command line loads shows module by module. */
const UNBUNDLED = fileURLToPath(new URL("../../support/cli-unbundled.js", import.meta.url));
const VERBS_DIR = /\/surfaces\/shared\/verbs\/([^/]+)\.js$/;
const verbModules = (esm: string[]) => esm.flatMap((u) => VERBS_DIR.exec(u)?.[1] ?? []).sort();

test("--version and --help work with better-sqlite3 unloadable and DOCKET_HOME a plain file, so they open no ledger", (t) => {
  const dir = tempDir(t);
  const home = join(dir, "not-a-directory");
  writeFileSync(home, "DOCKET_HOME is a file: nothing can be created or opened under it\n");
  const env = cliEnv({ DOCKET_HOME: home, HOME: dir });
  for (const args of [["--version"], ["-V"], ["--json", "--version"]]) {
    const r = runLoggingModules([DOCKET_BIN, ...args], { cwd: dir, env, block: ["better-sqlite3"] });
    assert.equal(r.run.stderr, "");
    assert.deepEqual([r.run.status, r.run.stdout], [0, `${VERSION}\n`], args.join(" "));
  }
  for (const args of [["--help"], ["help"]]) {
    const r = runLoggingModules([DOCKET_BIN, ...args], { cwd: dir, env, block: ["better-sqlite3"] });
    assert.equal(r.run.status, 0, `${args.join(" ")}: ${r.run.stderr}`);
    assert.match(r.run.stdout, /^Usage: docket \[options\] \[command\]/);
  }
  // A group's own help loads that group (and so the SQLite module) but still opens nothing under DOCKET_HOME.
  for (const args of [
    ["help", "worker"],
    ["worker", "--help"],
  ]) {
    const r = runLoggingModules([DOCKET_BIN, ...args], { cwd: dir, env });
    assert.equal(r.run.status, 0, `${args.join(" ")}: ${r.run.stderr}`);
    assert.match(r.run.stdout, /^Usage: docket worker /);
  }
  const verbose = runLoggingModules([UNBUNDLED, "--help"], { cwd: dir, env });
  assert.deepEqual(verbModules(verbose.esm), ["outcome", "registry", "run"], "--help loads no command group");
  for (const r of [verbose, runLoggingModules([DOCKET_BIN, "--help"], { cwd: dir, env })])
    assert.equal(
      r.cjs.some((f) => f.includes("better-sqlite3")),
      false,
    );
});

test("a worker's heartbeat loads the one bundled worker client: no verb module, no verb table, no commander", (t) => {
  const dir = tempDir(t);
  const env = cliEnv({ DOCKET_HOME: join(dir, "docket"), HOME: dir });
  const r = runLoggingModules([DOCKET_BIN, "worker", "heartbeat"], { cwd: dir, env });
  assert.equal(r.run.status, 2, "without a worker identity it is a usage error");
  assert.match(r.run.stderr, /DOCKET_WORKER_ID, DOCKET_GENERATION, DOCKET_RUN_TOKEN are not set/);
  // bin/docket.js sends worker lines to dist/bundle/worker.cjs: worker-fast, worker-argv and every verb in one file.
  assert.deepEqual(verbModules(r.esm), []);
  assert.deepEqual(r.cjs.filter((u) => u.endsWith("/dist/bundle/worker.cjs")).length, 1, "the bundled client");
  assert.deepEqual(
    [...r.esm, ...r.cjs].filter((u) => /node_modules\/|\/dist\/src\//.test(u)),
    [],
    "no package, no commander, no separate module",
  );
  // A line it cannot parse goes to commander, for commander's own message and exit code.
  const bad = runLoggingModules([DOCKET_BIN, "worker", "heartbeat", "--bogus"], { cwd: dir, env });
  assert.deepEqual(
    [bad.run.status, bad.run.stderr],
    [2, "error: unknown option '--bogus'\n(run with --help for usage)\n"],
  );
  assert.ok(bad.esm.some((u) => u.includes("/commander/")) || bad.cjs.some((u) => u.includes("/commander/")));
});

test("docket ls --json loads none of pi-ai's provider SDKs, and its model registry only when a price is asked", (t) => {
  const dir = tempDir(t);
  const env = cliEnv({ DOCKET_HOME: join(dir, "docket"), HOME: dir });
  const r = runLoggingModules([DOCKET_BIN, "ls", "--json"], { cwd: dir, env });
  assert.equal(r.run.status, 0, r.run.stderr);
  const packagesOf = (run: typeof r) =>
    [...run.esm, ...run.cjs].flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(u)?.slice(1) ?? []);
  const names = new Set(packagesOf(r).filter((_, i) => i % 2 === 0));
  assert.deepEqual(
    [...names].sort(),
    ["better-sqlite3"],
    // commander and better-sqlite3's JavaScript are built into the CLI's bundle: only the addon is loaded from its
    // package, by its path (no `bindings` search)
    "no worker reported usage: no price asked",
  );
  const prices = new URL("../../../src/substrate/model-prices.js", import.meta.url).href;
  const priced = runLoggingModules(
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(prices)}); if (!m.modelPrices("anthropic", "claude-sonnet-4-5")) process.exit(3);`,
    ],
    { cwd: dir, env },
  );
  assert.equal(priced.run.status, 0, priced.run.stderr);
  const packages = packagesOf(priced);
  const piAi = packages.flatMap((p, i) => (i % 2 === 0 && p === "@mariozechner/pi-ai" ? [packages[i + 1]] : [])).sort();
  // Loaded by `require` where node can, whose hooks may not log the registry's own import of its generated table.
  assert.ok(
    piAi.includes("dist/models.js") && piAi.every((p) => p === "dist/models.js" || p === "dist/models.generated.js"),
    `a price loads the registry's own modules, no provider SDK: ${piAi.join(", ")}`,
  );
});

test("docket verdict --json loads the review queue and the ledger: no remote launch, door, tell, Combine recording, menu, agent, effect handler, migration body or workspace git", (t) => {
  const dir = tempDir(t);
  const env = cliEnv({ DOCKET_HOME: join(dir, "docket"), HOME: dir });
  // The first run makes the ledger (and so loads the migrations' bodies); the second finds it up to date.
  const first = runLoggingModules([UNBUNDLED, "verdict", "--json"], { cwd: dir, env });
  assert.equal(first.run.status, 0, first.run.stderr);
  assert.ok(
    [...first.esm, ...first.cjs].some((u) => u.endsWith("/ledger/core/migrations/index.js")),
    "a new ledger is migrated",
  );
  const r = runLoggingModules([UNBUNDLED, "verdict", "--json"], { cwd: dir, env });
  assert.equal(r.run.status, 0, r.run.stderr);
  assert.deepEqual(JSON.parse(r.run.stdout), { queue: [] });
  const bundled = runLoggingModules([DOCKET_BIN, "verdict", "--json"], { cwd: dir, env });
  assert.deepEqual([bundled.run.status, bundled.run.stdout], [0, r.run.stdout], "the bundle answers the same");
  // The bundle runs as a script with the verb's kept code (bin/kept-code.js): no module of dist/ is loaded.
  assert.deepEqual(
    [...bundled.esm, ...bundled.cjs]
      .filter((u) => u.includes("/dist/") || u.includes("/bin/"))
      .map((u) => u.replace(/^.*\/(dist|bin)\//, "$1/")),
    ["bin/docket.js", "bin/kept-code.js"],
    "the bundle is the one file of ours",
  );
  const ours = [...r.esm, ...r.cjs].flatMap((u) => /\/dist\/src\/(.*)\.js$/.exec(u)?.[1] ?? []);
  assert.ok(ours.includes("engine/review/verdict"), "the queue itself is loaded");
  const unused = new RegExp(
    "^(engine/(hosts/remote-worker|door/(?!keep$).*|talk/tell|talk/journal|workers/launch|workers/status|review/combine(-record|-resolution)?|review/review-view)" +
      "|ledger/core/migrations/(?!history$).*|substrate/agents/(pi|claude|codex|system-agents)|substrate/door-revive" +
      "|substrate/git/(changes|merge|patch-check))$",
  );
  assert.deepEqual(
    ours.filter((m) => unused.test(m)),
    [],
    "nothing the queue does not run",
  );
  // A budget (155 when it was set, 220 before the lazy seams, 166 with the queue's read snapshot, 171 with the
  // door supervisor's check every command makes as it finishes, 188 with the card's evidence findings, network record
  // and best-of group, 190 with the card read through the Reviewable and the queue's own SQL read, 191 with the --json
  // document written to fd 1 by fd-io rather than through node's stdio streams): a new static chain into the engine
  // shows here.
  assert.ok(ours.length <= 191, `verdict --json loaded ${ours.length} of Docket's modules`);
});

test("a --json verdict that starts no process builds neither node:child_process nor stdio streams (no net socket family)", (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, "project"));
  const project = gitRepo(join(dir, "project"));
  const env = cliEnv({ DOCKET_HOME: join(dir, "docket"), HOME: dir });
  // node's own modules a process loaded, read at its exit (its stdout and stderr are pipes, as under a script).
  const preload = join(dir, "builtins.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(join(dir, "builtins.txt"))}, process.moduleLoadList.join("\\n")));\n`,
  );
  // The first run makes the ledger; neither asks git anything (a plain repository, an empty queue). `ls` asks tmux.
  for (const verb of ["verdict", "verdict"]) {
    const r = spawnSync(process.execPath, ["-r", preload, DOCKET_BIN, verb, "--json"], {
      cwd: project,
      env,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    const loaded = readFileSync(join(dir, "builtins.txt"), "utf8").split("\n");
    assert.deepEqual(
      loaded.filter((m) => /^NativeModule (child_process|net|tty|internal\/fs\/sync_write_stream)$/.test(m)),
      [],
      `docket ${verb} --json`,
    );
  }
});
