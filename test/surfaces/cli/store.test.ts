// The deliverable store through the real CLI: save, list, load, preview and delete, as JSON contracts and refusals.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openEngine } from "../../../src/engine/open.js";
import { workerStoredId } from "../../../src/engine/store/save.js";
import { requireWorker } from "../../../src/ledger/workers/workers.js";
import { tempDir } from "../../support/temp.js";
import { dumpTables } from "../../support/work-ledger.js";
import { assertExit, jsonOf } from "../../support/docket-cli.js";
import { teardown, type Hooks } from "../../support/teardown.js";
import {
  anchorWorkerRecord,
  approvedWorker,
  decide,
  publishVersion,
  writeLegacyBundles,
} from "../../support/stored.js";

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../bin/docket.js");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cliEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DOCKET_HOME: home,
    PI_CODING_AGENT_DIR: join(home, "pi"),
    TMPDIR: join(home, "tmp"),
    HOME: join(home, "user"),
  };
}

function docket(home: string, args: string[], input?: string): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: home, env: cliEnv(home), encoding: "utf8", input });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function docketAsync(t: Hooks, home: string, args: string[]): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env: cliEnv(home) });
    teardown(t).child(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/** A Docket home with worker w1 whose v1 is approved; returns the worker's store id. */
function homeWithApprovedWorker(t: { after(fn: () => void): void }): { home: string; worker: string; storeId: string } {
  const home = tempDir(t, "docket-store-cli-");
  for (const d of ["pi", "tmp", "user"]) mkdirSync(join(home, d));
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  try {
    const { worker } = approvedWorker(ctx);
    return { home, worker, storeId: workerStoredId(worker, requireWorker(ctx.db, worker).createdAt) };
  } finally {
    ctx.close();
  }
}

test("two processes saving the same worker version at once make one version and two consistent answers", async (t) => {
  const { home, worker, storeId } = homeWithApprovedWorker(t);
  const runs = await Promise.all([0, 1, 2, 3].map(() => docketAsync(t, home, ["save", "--from", worker, "--json"])));
  for (const r of runs) assert.equal(r.status, 0, r.stderr);
  const answers = runs.map(
    (r) => JSON.parse(r.stdout) as { ref: string; id: string; version: number; idempotent: boolean },
  );
  assert.deepEqual(answers.map((a) => a.idempotent).sort(), [false, true, true, true]);
  for (const a of answers)
    assert.deepEqual(
      { ref: a.ref, id: a.id, version: a.version },
      { ref: `deliverable:${storeId}:1`, id: storeId, version: 1 },
    );
  assert.deepEqual(readdirSync(join(home, "deliverables", storeId)), ["v1.json"]);
  const list = jsonOf(docket(home, ["deliverables", "--json"]));
  assert.equal(list.deliverables.length, 1);
});

test("save --author prints the JSON contract, and the list and load print theirs", (t) => {
  const { home } = homeWithApprovedWorker(t);
  writeFileSync(join(home, "plan.md"), "Plan body\n");
  const saved = docket(home, ["save", "--author", "plan.md", "--outcome", "proposal", "--json"]);
  assert.equal(saved.status, 0, saved.stderr);
  const s = JSON.parse(saved.stdout);
  assert.deepEqual(Object.keys(s), ["ref", "id", "version", "idempotent"]);
  assert.equal(s.idempotent, false);
  const fromStdin = docket(
    home,
    ["save", "--author", "-", "--outcome", "findings", "--summary", "piped", "--json"],
    "piped body\r\n",
  );
  assert.equal(fromStdin.status, 0, fromStdin.stderr);
  const list = jsonOf(docket(home, ["deliverables", "--json"]));
  assert.deepEqual(Object.keys(list), ["deliverables", "unsupported"]);
  assert.deepEqual(Object.keys(list.deliverables[0]), ["ref", "id", "version", "outcome", "summary", "savedAt"]);
  assert.deepEqual(list.deliverables.map((d: { summary: string }) => d.summary).sort(), ["Plan body", "piped"]);
  const loaded = docket(home, ["load", s.ref, "--json"]);
  assert.deepEqual(jsonOf(loaded), { slot: "d1", ref: s.ref });
  const preview = docket(home, ["preview", jsonOf(fromStdin).ref, "--json"]);
  assert.equal(jsonOf(preview).body, "piped body\r\n");
  assert.match(docket(home, ["unload", "d1"]).stdout, /^unloaded d1/);
});

test("a corrupt v2.json makes save of v2 fail naming the file, and the file is untouched", (t) => {
  const { home, worker, storeId } = homeWithApprovedWorker(t);
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  const v2 = publishVersion(ctx, worker, 2);
  decide(ctx, worker, v2, "approve");
  ctx.close();
  const path = join(home, "deliverables", storeId, "v2.json");
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '{"schemaVersion": 2, "id": "tru');
  const r = docket(home, ["save", "--from", worker, "--json"]);
  assertExit(r, 1);
  const err = JSON.parse(r.stdout).error;
  assert.equal(err.code, "store-version-corrupt");
  assert.ok(err.message.includes(path), err.message);
  assert.equal(readFileSync(path, "utf8"), '{"schemaVersion": 2, "id": "tru');
  assert.deepEqual(readdirSync(dirname(path)), ["v2.json"]);
  const list = jsonOf(docket(home, ["deliverables", "--json"]));
  assert.deepEqual(list.unsupported, [{ path, reason: "corrupt" }]);
});

test("unsupported and foreign records are listed with reason and path; unsafe directories are ignored", (t) => {
  const { home } = homeWithApprovedWorker(t);
  const store = join(home, "deliverables");
  const anchorId = "worker-fix-auth-bug-a1b2-0123456789";
  mkdirSync(join(store, anchorId), { recursive: true });
  writeFileSync(join(store, anchorId, "v2.json"), JSON.stringify(anchorWorkerRecord(anchorId)));
  mkdirSync(join(store, "human-1-future"));
  writeFileSync(
    join(store, "human-1-future", "v1.json"),
    JSON.stringify({ schemaVersion: 3, id: "human-1-future", version: 1 }),
  );
  mkdirSync(join(store, "..x"));
  writeFileSync(join(store, "..x", "v1.json"), JSON.stringify(anchorWorkerRecord("..x")));
  mkdirSync(join(store, ".trash"));
  writeFileSync(join(store, ".trash", "v1.json"), "{}");
  writeFileSync(join(store, "README.txt"), "not a record");
  const all = jsonOf(docket(home, ["deliverables", "--json"]));
  assert.deepEqual(
    all.deliverables.map((d: { ref: string }) => d.ref),
    [`deliverable:${anchorId}:2`],
  );
  assert.deepEqual(all.unsupported, [{ path: join(store, "human-1-future", "v1.json"), reason: "newer-schema" }]);
  const only = jsonOf(docket(home, ["deliverables", "--unsupported", "--json"]));
  assert.deepEqual(only, { deliverables: [], unsupported: all.unsupported });
  assert.match(
    docket(home, ["deliverables"]).stdout,
    /deliverable:unreadable {2}newer-schema {2}.*human-1-future\/v1\.json/,
  );
  const traversal = docket(home, ["load", "../../etc/passwd", "--json"]);
  assertExit(traversal, 1);
  assert.equal(JSON.parse(traversal.stdout).error.code, "stored-not-found");
  assert.deepEqual(jsonOf(docket(home, ["load", anchorId, "--json"])), {
    slot: "d1",
    ref: `deliverable:${anchorId}:2`,
  });
});

test("deliverable delete refuses without confirmation when nobody can be asked, and --yes deletes one version", (t) => {
  const { home } = homeWithApprovedWorker(t);
  writeFileSync(join(home, "a.md"), "a\n");
  const s = jsonOf(docket(home, ["save", "--author", "a.md", "--outcome", "completed", "--json"]));
  const refused = docket(home, ["deliverable", "delete", s.ref]);
  assertExit(refused, 1);
  assert.equal(
    refused.stderr.trim(),
    `docket: deleting ${s.ref} needs confirmation (run it in a terminal to confirm, or add --yes)`,
  );
  assert.equal(jsonOf(docket(home, ["deliverables", "--json"])).deliverables.length, 1);
  const deleted = docket(home, ["deliverable", "delete", s.ref, "--yes", "--json"]);
  assert.equal(deleted.status, 0, deleted.stderr);
  assert.equal(jsonOf(docket(home, ["deliverables", "--json"])).deliverables.length, 0);
});

test("legacy bundles appear in the list and load as slots; their format is never written", (t) => {
  const { home } = homeWithApprovedWorker(t);
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  writeLegacyBundles(ctx.home);
  ctx.close();
  const list = jsonOf(docket(home, ["deliverables", "--json"]));
  assert.deepEqual(
    list.legacy.map((b: { ref: string }) => b.ref),
    ["checkpoint:ckpt-auth"],
  );
  assert.deepEqual(jsonOf(docket(home, ["load", "checkpoint:ckpt-auth", "--json"])), {
    slot: "d1",
    ref: "checkpoint:ckpt-auth",
  });
  assert.match(docket(home, ["preview", "d1"]).stdout, /Where we left the auth work\./);
});

test("usage errors exit 2: save needs exactly one source, and --author needs --outcome", (t) => {
  const { home, worker } = homeWithApprovedWorker(t);
  assertExit(docket(home, ["save"]), 2);
  assertExit(docket(home, ["save", "--from", worker, "--author", "x.md"]), 2);
  const r = docket(home, ["save", "--author", "x.md", "--json"]);
  assertExit(r, 2);
  assert.equal(JSON.parse(r.stdout).error.message, "--author needs --outcome <proposal|findings|completed>");
});

test("load, preview and delete of a version that does not exist are refused without any ledger write", (t) => {
  const home = tempDir(t, "docket-store-badref-");
  mkdirSync(join(home, "tmp"), { recursive: true });
  writeFileSync(join(home, "body.md"), "Findings\n");
  const saved = JSON.parse(
    docket(home, ["save", "--author", join(home, "body.md"), "--outcome", "findings", "--json"]).stdout,
  );
  assert.equal(docket(home, ["deliverables"]).status, 0);
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  t.after(() => ctx.close());
  const version = () => ctx.db.pragma("data_version", { simple: true });
  const before = { data: version(), tables: dumpTables(ctx.db) };
  for (const args of [
    ["load", `deliverable:${saved.id}:9`],
    ["preview", `deliverable:${saved.id}:9`],
    ["deliverable", "delete", `deliverable:${saved.id}:9`, "--yes"],
    ["deliverable", "delete", "deliverable:nothing-here:1", "--yes"],
    ["load", "nothing-here"],
  ]) {
    const r = docket(home, [...args, "--json"]);
    assert.equal(r.status, 1, r.stdout);
    assert.equal(JSON.parse(r.stdout).error.code, "stored-not-found");
    assert.equal(version(), before.data, `\`docket ${args.join(" ")}\` committed a write to the ledger`);
  }
  assert.deepEqual(dumpTables(ctx.db), before.tables);
});
