// The built fast path of `docket worker …`: a command worker's call through its door loads one module of ours, the
// bundle (scripts/bundle.mjs), beside bin/docket.js, both CommonJS — and the bundle was built from the dist/ there now.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { callDoor, doorOf } from "../../../src/surfaces/shared/door-client.js";
import { DOCKET_BIN } from "../../support/docket-cli.js";
import { runLoggingModules, type LoggedRun } from "../../support/module-log.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..");
const BUNDLE = join(ROOT, "dist", "bundle", "worker.cjs");

/** The files of this package (not its dependencies) a run loaded, relative to the package root. */
const ours = (r: LoggedRun) =>
  [...r.esm, ...r.cjs]
    .flatMap((u) => (u.startsWith("file:") ? [relative(ROOT, fileURLToPath(u))] : []))
    .filter((p) => !p.startsWith("..") && !p.startsWith("node_modules/"))
    .sort();

test("a command worker's heartbeat and report through its door load bin/docket.js and the one bundled client, nothing else of ours", async (t) => {
  const { ctx, home } = workLedger(t);
  const w = addWorker(ctx, "tok-bundle");
  const item = addItem(ctx, { kind: "todo", text: "paint it" }).id;
  const second = addItem(ctx, { kind: "todo", text: "paint it again" }).id;
  dispatchItems(ctx, { worker: w.worker, items: [item, second] });
  const door = doorOf({
    DOCKET_HOME: home,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  });
  await callDoor(door, "heartbeat", {}); // starts the door
  const empty = join(home, "empty-home");
  mkdirSync(empty);
  const env = {
    PATH: process.env.PATH,
    HOME: empty,
    DOCKET_DOOR: door.socket,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  };
  // node's own modules the call loaded, beyond what node loads to start: written by a preload as the process exits.
  const builtinsLog = join(home, "builtins.log");
  const preload = join(home, "builtins-preload.cjs");
  writeFileSync(
    preload,
    `const start = new Set(process.moduleLoadList);
process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(builtinsLog)}, process.moduleLoadList.filter((m) => !start.has(m)).join("\\n")));`,
  );
  const report = (id: string) => ["report", "--item", id, "--outcome", "done", "--body", "painted"];
  // The second report reads its entries from a file, through the reader of untrusted input every command uses.
  const entries = join(empty, "entries.json");
  writeFileSync(entries, JSON.stringify([{ item: second, outcome: "done", body: "painted again" }]));
  for (const [args, again] of [
    [["heartbeat"], ["heartbeat"]],
    [report(item), ["report", "--file", "entries.json"]],
  ] as const) {
    const r = runLoggingModules([DOCKET_BIN, "worker", ...args], { cwd: empty, env });
    assert.equal(r.run.status, 0, `${args[0]}: ${r.run.stderr}`);
    assert.deepEqual(ours(r), ["bin/docket.js", "dist/bundle/worker.cjs"], args[0]);
    assert.deepEqual(ours({ ...r, cjs: [] }), [], "both CommonJS: the call starts no ES-module loader of its own");
    const dependencies = [...r.esm, ...r.cjs].filter((u) => u.includes("/node_modules/"));
    assert.deepEqual(dependencies, [], `${args[0]} loads no package: no commander, no better-sqlite3`);
    // Its stdout a pipe, as an agent's shell tool gives it. The call itself goes over node:net (public API, so net and
    // node's stream family are expected); what it must not load is the rest: no terminal, SQLite, child process,
    // readline or crypto, which would mean the fast path pulled in the engine, the commander program or the restart.
    const bare = spawnSync(process.execPath, ["-r", preload, DOCKET_BIN, "worker", ...again], {
      cwd: empty,
      env,
      encoding: "utf8",
    });
    assert.equal(bare.status, 0, `${args[0]}: ${bare.stderr}`);
    const loaded = readFileSync(builtinsLog, "utf8").split("\n");
    const heavy = loaded.filter((m) =>
      /^NativeModule (tty|sqlite|child_process|readline|crypto|fs\/promises)$/.test(m),
    );
    assert.deepEqual(heavy, [], `${args[0]} loaded only what one line over a socket needs`);
  }
  for (const id of [item, second]) {
    const row = ctx.db.prepare("SELECT state FROM items WHERE id = ?").get(id) as { state: string };
    assert.equal(row.state, "done", `the report of ${id} landed`);
  }
});

test("the worker's bundle is built from the compiled modules in dist/ now (npm run build, not tsc alone)", () => {
  const { inputs } = JSON.parse(readFileSync(join(ROOT, "dist", "bundle", "worker.inputs.json"), "utf8")) as {
    inputs: string[];
  };
  assert.ok(inputs.includes("dist/src/surfaces/cli/worker-fast.js"), inputs.join(", "));
  const built = statSync(BUNDLE).mtimeMs;
  const newer = inputs.filter((p) => statSync(join(ROOT, p)).mtimeMs > built);
  assert.deepEqual(newer, [], "compiled after the bundle was built: run npm run build");
});
