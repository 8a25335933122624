// Docket and pi-docket 0.8.1 in one home (both default to ~/.pi/agent/docket). pi-docket lists its workers from
// every `workers/*/status.json`; Docket keeps its worker directories in `fleet/`, so nothing it writes is in that list,
// and it still reads pi-docket's DeliverableStore records and legacy bundles.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docketWith } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { anchorWorkerRecord, publishVersion, writeLegacyBundles } from "../../support/stored.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";
import { waitFor } from "../../support/wait.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";
import { homeLayout } from "../../../src/files/home.js";

/**
 * What pi-docket 0.8.1's worker list reads:
 * for each entry of `workers/`, `status.json` parsed as a WorkerStatus; entries without an `id` are skipped; the rest
 * are sorted with `a.createdAt.localeCompare(b.createdAt)` (the call that throws on Docket's old status files). Its
 * sweeps then use `index` (number, short labels wN), `tmuxSession`/`tmuxWindowId`/`tmuxPaneId` (strings, tmux ops),
 * `state` (its lifecycle set), `updatedAt`/`heartbeatAt`/`exitedAt`/`reviewedAt`/`paneCapturedAt` (ISO strings, age
 * and liveness), `projectRoot` (string, the per-project filter), `task` and `cwd` (strings), `questions` and `todos`
 * (arrays). This reader fails on any entry that would break those uses.
 */
const PI_DOCKET_STATES = ["starting", "active", "idle", "needs_input", "ready", "failed", "error", "ended"];

function listAsPiDocket(home: string): { id: string; createdAt: string }[] {
  const root = join(home, "workers");
  if (!existsSync(root)) return [];
  const out: Record<string, unknown>[] = [];
  for (const name of readdirSync(root)) {
    let status: Record<string, unknown> | undefined;
    try {
      status = JSON.parse(readFileSync(join(root, name, "status.json"), "utf8")) as Record<string, unknown>;
    } catch {
      status = undefined; // pi-docket's reader falls back to "no status" for a missing or unreadable file
    }
    if (status?.id) out.push(status);
  }
  for (const s of out) {
    for (const f of ["id", "tmuxSession", "task", "cwd", "projectRoot", "createdAt", "updatedAt", "state"])
      assert.equal(typeof s[f], "string", `${String(s.id)}.${f}`);
    assert.equal(typeof s.index, "number", `${String(s.id)}.index`);
    assert.ok(PI_DOCKET_STATES.includes(s.state as string), `${String(s.id)}.state`);
    for (const f of ["questions", "todos"])
      assert.ok(s[f] === undefined || Array.isArray(s[f]), `${String(s.id)}.${f}`);
  }
  return (out as { id: string; createdAt: string }[]).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** A worker exactly as pi-docket writes it, with the fields its list reads. */
function piDocketWorker(home: string, project: string): string {
  const dir = join(home, "workers", "fix-login-a1b2");
  mkdirSync(dir, { recursive: true });
  const status = {
    id: "fix-login-a1b2",
    index: 1,
    tmuxSession: "docket-workers:w1",
    tmuxWindowId: "@7",
    tmuxPaneId: "%7",
    task: "fix login",
    cwd: project,
    projectRoot: project,
    createdAt: "2026-11-30T10:00:00.000Z",
    updatedAt: "2026-11-30T10:05:00.000Z",
    state: "ready",
    runToken: "0123456789abcdef",
    questions: [],
    todos: [],
    summary: "fixed",
    deliverable: { id: "worker-deliverable:fix-login-a1b2", version: 1, ref: "worker-deliverable:fix-login-a1b2:1" },
  };
  writeFileSync(join(dir, "status.json"), `${JSON.stringify(status, null, 2)}\n`);
  return join(dir, "status.json");
}

test("two Docket workers beside a pi-docket worker: pi-docket's list still reads only its own, and Docket reads its store and bundles", async (t) => {
  const root = tempDir(t, "docket-shared-");
  mkdirSync(join(root, "repo"));
  const project = gitRepo(join(root, "repo"), { "a.txt": "one\n" });
  const home = join(root, "agent", "docket");
  const theirs = piDocketWorker(home, project);
  const theirBytes = readFileSync(theirs, "utf8");
  const storeId = "worker-fix-login-a1b2-0123456789";
  mkdirSync(join(home, "deliverables", storeId), { recursive: true });
  writeFileSync(join(home, "deliverables", storeId, "v2.json"), JSON.stringify(anchorWorkerRecord(storeId), null, 2));
  writeLegacyBundles(homeLayout(home));
  const server = tmuxServer(t);
  const env = cliEnv({ PI_CODING_AGENT_DIR: join(root, "agent"), DOCKET_TMUX_SOCKET: server.socket, HOME: root });
  const run = (args: string[], extra: Record<string, string> = {}, input?: string) =>
    docketWith({ env: { ...env, ...extra }, cwd: project, input }, ...args, "--json");

  for (const task of ["first", "second"]) {
    const r = run(["spawn", "--agent", "command", "--cmd", "sleep 60", "--yes", task]);
    assert.equal(r.code, 0, r.stderr);
  }
  const docketDirs = join(home, "fleet");
  await waitFor("both Docket status projections", () =>
    ["w1", "w2"].every((w) => existsSync(join(docketDirs, w, "status.json"))),
  );

  assert.deepEqual(
    listAsPiDocket(home).map((s) => s.id),
    ["fix-login-a1b2"],
  );
  assert.deepEqual(readdirSync(join(home, "workers")), ["fix-login-a1b2"], "Docket created nothing in workers/");
  assert.equal(readFileSync(theirs, "utf8"), theirBytes, "pi-docket's status file is untouched");

  const list = run(["deliverables"]);
  assert.deepEqual(
    list.json.deliverables.map((d: { ref: string }) => d.ref),
    [`deliverable:${storeId}:2`],
  );
  assert.deepEqual(
    list.json.legacy.map((b: { ref: string }) => b.ref),
    ["checkpoint:ckpt-auth"],
  );
});

test("an older home's Docket status files in workers/w<N> go on the next command; those workers keep working where they are", (t) => {
  const { ctx, home } = workLedger(t);
  const theirs = piDocketWorker(home, ctx.cwd);
  const theirBytes = readFileSync(theirs, "utf8");
  const { worker, runToken } = addWorker(ctx);
  publishVersion(ctx, worker, 1, "written before the move\n");
  ctx.close();
  // Where builds before the move kept it, with the status projection pi-docket's list chokes on (no createdAt).
  const legacy = join(home, "workers", worker);
  renameSync(join(home, "fleet", worker), legacy);
  writeFileSync(
    join(legacy, "status.json"),
    JSON.stringify({
      id: worker,
      task: "test worker",
      state: "ready",
      note: "projection of the Docket ledger; editing this file changes nothing",
    }),
  );
  assert.throws(() => listAsPiDocket(home), "the old layout is what breaks pi-docket");

  const env = cliEnv({ DOCKET_HOME: home });
  const report = docketWith({ env, cwd: home }, "report", worker, "--json");
  assert.equal(report.code, 0, report.stderr);
  assert.equal(report.json.body, "written before the move\n", "the version is read from where it was written");
  assert.equal(existsSync(join(legacy, "status.json")), false);
  assert.deepEqual(
    listAsPiDocket(home).map((s) => s.id),
    ["fix-login-a1b2"],
  );

  const next = docketWith(
    {
      env: { ...env, DOCKET_WORKER_ID: worker, DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: runToken },
      cwd: home,
      input: "v2 body\n",
    },
    "worker",
    "done",
    "--outcome",
    "findings",
    "--json",
  );
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(
    readdirSync(join(legacy, "deliverables")).sort(),
    ["v1.json", "v2.json"],
    "the next version lands beside the first",
  );
  assert.equal(existsSync(join(legacy, "status.json")), false, "no status projection is written where pi-docket reads");
  assert.equal(existsSync(join(home, "fleet", worker)), false);
  assert.equal(readFileSync(theirs, "utf8"), theirBytes);
});
