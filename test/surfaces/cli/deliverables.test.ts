// Worker deliverables through the real CLI: done, wait, todos and fail speak the protocol; report and diff read back.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dumpWorkTables, workLedger } from "../../support/work-ledger.js";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { isolatedWorker, type ProtocolWorker } from "../../support/protocol-worker.js";
import { git } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";
import { deliverablePath, listDeliverableVersions } from "../../../src/files/workers/deliverables.js";
import { assertExit, doneArgs, jsonOf } from "../../support/docket-cli.js";

const BIN = resolve(import.meta.dirname, "../../../../bin/docket.js");

function docket(
  home: string,
  w: ProtocolWorker | undefined,
  args: string[],
  options: { input?: string; generation?: number } = {},
) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, DOCKET_HOME: home };
  if (w)
    Object.assign(env, {
      DOCKET_WORKER_ID: w.worker,
      DOCKET_GENERATION: String(options.generation ?? w.generation),
      DOCKET_RUN_TOKEN: w.runToken,
    });
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: w?.workspace ?? home,
    env,
    input: options.input ?? "",
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function setup(t: { after(fn: () => void): void }) {
  const { ctx, home } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  return { ctx, home, w };
}

test("worker done from a body file prints the issue's JSON contract and freezes the body byte for byte", (t) => {
  const { ctx, home, w } = setup(t);
  writeFileSync(join(w.workspace, "src/app.txt"), "one\nTWO\nthree\n");
  const body = "Full text\r\nwith trailing   \nand ünïcode ✓\n";
  writeFileSync(join(w.workspace, "..", "body.md"), body);
  const args = [
    ...doneArgs("uppercased two"),
    "--json",
    "--evidence",
    "test=npm test: ok",
    "--recommend",
    "merge",
    "--body-file",
    "../body.md",
    "--call-id",
    "c-1",
  ];
  const r = docket(home, w, args);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out, {
    deliverable: { id: `worker-deliverable:${w.worker}`, version: 1, ref: `worker-deliverable:${w.worker}:1` },
    items: [],
  });
  const again = docket(home, w, args);
  assert.deepEqual(jsonOf(again), out, "the same --call-id returns the same version");
  const sidecar = JSON.parse(readFileSync(deliverablePath(ctx.home, w.worker, 1), "utf8"));
  assert.equal(sidecar.body, body);
  assert.deepEqual(sidecar.evidence, [{ kind: "test", text: "npm test: ok" }]);
  assert.deepEqual(sidecar.recommendations, ["merge"]);
});

test("worker done reads the body from standard input and a fresh call id makes the next version", (t) => {
  const { home, w } = setup(t);
  assertExit(docket(home, w, doneArgs("one"), { input: "first" }));
  const r = docket(home, w, ["worker", "done", "--json", "--outcome", "proposal", "--summary", "two"], {
    input: "second\n",
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).deliverable.version, 2);
  const rep = jsonOf(docket(home, undefined, ["report", w.worker, "--json"]));
  assert.equal(rep.body, "second\n");
  assert.equal(jsonOf(docket(home, undefined, ["report", `${w.worker}:v1`, "--json"])).body, "first");
});

test("report --json has exactly the issue's fields; diff prints a patch git apply accepts on the base", (t) => {
  const { home, w } = setup(t);
  writeFileSync(join(w.workspace, "src/app.txt"), "one\nTWO\nthree\n");
  writeFileSync(join(w.workspace, "added.txt"), "new\n");
  assertExit(
    docket(home, w, [...doneArgs("s"), "--evidence", "note=n", "--evidence", "test=t", "--recommend", "r1"], {
      input: "the body",
    }),
  );
  const r = docket(home, undefined, ["report", w.worker, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const rep = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(rep), [
    "worker",
    "deliverable",
    "outcome",
    "summary",
    "body",
    "evidence",
    "recommendations",
    "changeSet",
    "planCoverage",
  ]);
  assert.deepEqual(rep, {
    worker: w.worker,
    deliverable: { id: `worker-deliverable:${w.worker}`, version: 1, ref: `worker-deliverable:${w.worker}:1` },
    outcome: "completed",
    summary: "s",
    body: "the body",
    evidence: [
      { kind: "note", text: "n" },
      { kind: "test", text: "t" },
    ],
    recommendations: ["r1"],
    changeSet: {
      files: [
        { path: "added.txt", additions: 1, deletions: 0 },
        { path: "src/app.txt", additions: 1, deletions: 1 },
      ],
      hunks: 2,
    },
    planCoverage: null,
  });
  const human = docket(home, undefined, ["report", w.worker]);
  assert.match(human.stdout, /task: +change the app/);
  assert.match(human.stdout, /state: +ready/);
  assert.match(human.stdout, /\+1 -1 +src\/app\.txt/);
  assert.ok(human.stdout.trimEnd().endsWith("the body"));

  const diff = docket(home, undefined, ["diff", `worker-deliverable:${w.worker}:1`]);
  assert.equal(diff.code, 0, diff.stderr);
  assert.doesNotMatch(diff.stdout, /\x1b\[/, "no colour when stdout is not a terminal");
  const fresh = join(tempDir(t, "docket-apply-"), "wt");
  git(w.project, "worktree", "add", "-q", "--detach", fresh, w.base);
  writeFileSync(join(fresh, "..", "p.patch"), diff.stdout);
  git(fresh, "apply", "--check", join(fresh, "..", "p.patch"));
});

test("a bad outcome, a missing identity and a fenced generation are refused with code and message, and nothing is frozen", (t) => {
  const { ctx, home, w } = setup(t);
  const bad = docket(home, w, ["worker", "done", "--json", "--outcome", "done", "--summary", "s"], { input: "b" });
  assertExit(bad, 1);
  assert.equal(JSON.parse(bad.stdout).error.code, "done-outcome-invalid");
  assert.match(
    JSON.parse(bad.stdout).error.message,
    /^outcome "done" is not one of completed, findings, proposal; call docket_done again/,
  );
  const noId = docket(home, undefined, doneArgs("s"), { input: "b" });
  assertExit(noId, 2);
  assert.match(noId.stderr, /DOCKET_WORKER_ID, DOCKET_GENERATION, DOCKET_RUN_TOKEN are not set/);
  const fenced = docket(home, w, [...doneArgs("s"), "--json"], {
    input: "b",
    generation: 3,
  });
  assertExit(fenced, 1);
  assert.equal(JSON.parse(fenced.stdout).error.code, "generation-replaced");
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), []);
});

test("report and diff refuse a missing or invalid sidecar with what to do, and a worker with none yet", (t) => {
  const { home, w } = setup(t);
  const none = docket(home, undefined, ["report", w.worker]);
  assertExit(none, 1);
  assert.equal(
    none.stderr.trim(),
    `docket: ${w.worker} has not published a deliverable yet (wait for it to call docket_done, or run \`docket peek ${w.worker}\`)`,
  );
  assertExit(docket(home, w, doneArgs("s"), { input: "b" }));
  writeFileSync(join(home, "fleet", w.worker, "deliverables", "v1.json"), "{}");
  for (const cmd of ["report", "diff"]) {
    const r = docket(home, undefined, [cmd, w.worker, "--json"]);
    assertExit(r, 1);
    const e = JSON.parse(r.stdout).error;
    assert.equal(e.code, "deliverable-invalid");
    assert.match(
      e.message,
      /^deliverable worker-deliverable:w1:1 is missing or invalid \(.*\); restore it or ask the worker to publish a new version$/,
    );
  }
  const usage = docket(home, undefined, ["report", w.worker, "--version", "0"]);
  assertExit(usage, 2);
  assert.match(usage.stderr, /--version must be a positive integer; got "0"/);
  const beyond = docket(home, undefined, ["diff", w.worker, "--version", "2"]);
  assertExit(beyond, 1);
  assert.match(beyond.stderr, /has no published version 2; its current version is v1/);
});

test("worker wait, todos and fail speak the same protocol from the command line", (t) => {
  const { ctx, home, w } = setup(t);
  const todos = docket(home, w, ["worker", "todos", "--json", "read the code", "write the fix"]);
  assert.deepEqual(jsonOf(todos), {
    todos: [
      { id: "t1", text: "read the code", state: "pending" },
      { id: "t2", text: "write the fix", state: "pending" },
    ],
    dropped: 0,
  });
  const wait = docket(home, w, [
    "worker",
    "wait",
    "--json",
    "--question",
    "Which db?",
    "--option",
    "sqlite",
    "--option",
    "pg",
    "--recommend",
    "sqlite",
  ]);
  assert.equal(wait.code, 0, wait.stderr);
  assert.deepEqual(JSON.parse(wait.stdout), { question: "q1", state: "needs_input", blocked: [] });
  const fail = docket(home, w, ["worker", "fail", "--reason", "cannot build"]);
  assert.equal(fail.code, 0, fail.stderr);
  assert.equal(fail.stdout.trim(), `${w.worker} → failed`);
  assert.deepEqual(
    { ...(ctx.db.prepare("SELECT state, last_error FROM workers WHERE id = ?").get(w.worker) as object) },
    { state: "failed", last_error: "cannot build" },
  );
});

test("worker done and wait with a refused item entry exit 1 with one error object and publish or ask nothing", (t) => {
  const { ctx, home, w } = setup(t);
  addItem(ctx, { kind: "todo", text: "mine" });
  addItem(ctx, { kind: "todo", text: "not mine" });
  dispatchItems(ctx, { worker: w.worker, items: ["t1"] });
  writeFileSync(join(w.workspace, "src/app.txt"), "one\nTWO\nthree\n");
  const items = join(home, "items.json");
  writeFileSync(
    items,
    JSON.stringify([
      { item: "t1", outcome: "done", body: "did it" },
      { item: "t2", outcome: "done", body: "not mine" },
    ]),
  );
  const blocked = join(home, "blocked.json");
  writeFileSync(
    blocked,
    JSON.stringify([
      { item: "t1", body: "need a choice" },
      { item: "t2", body: "not mine" },
    ]),
  );
  const before = dumpWorkTables(ctx.db);
  for (const args of [
    [...doneArgs("s"), "--json", "--items-file", items, "--call-id", "c1"],
    ["worker", "wait", "--json", "--question", "Which?", "--blocked-file", blocked, "--call-id", "c1"],
  ]) {
    const r = docket(home, w, args, { input: "body" });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ["error"]);
    assert.equal(out.error.code, "no-active-binding");
    assert.match(
      out.error.message,
      /— t2: no active binding for this worker at this generation .* \(1 of 2 entries refused; nothing was recorded\)$/,
    );
    assert.deepEqual(
      out.error.results.map((x: { item: string; status: string }) => `${x.item} ${x.status}`),
      ["t1 not-recorded", "t2 refused"],
    );
  }
  // What a refusal leaves is its own record for the human (the card's finding, one attention line), nothing else.
  assert.deepEqual(dumpWorkTables(ctx.db), before, "no version, no question, no report, no state change");
  const findings = ctx.db.prepare("SELECT kind FROM worker_findings WHERE worker = ?").all(w.worker) as {
    kind: string;
  }[];
  assert.ok(findings.length > 0 && findings.every((f) => f.kind === "refused"), "the refusals are shown to the human");
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), [], "no sidecar was claimed");
});

test("wait --call-id c1 blocking t1, then done --call-id c1 reporting t1, are two calls: no idempotency conflict", (t) => {
  const { ctx, home, w } = setup(t);
  addItem(ctx, { kind: "todo", text: "mine" });
  dispatchItems(ctx, { worker: w.worker, items: ["t1"] });
  const blocked = join(home, "blocked.json");
  writeFileSync(blocked, JSON.stringify([{ item: "t1", body: "need a choice" }]));
  const items = join(home, "items.json");
  writeFileSync(items, JSON.stringify([{ item: "t1", outcome: "done", body: "done after the answer" }]));
  const asked = docket(home, w, [
    "worker",
    "wait",
    "--json",
    "--question",
    "Which?",
    "--blocked-file",
    blocked,
    "--call-id",
    "c1",
  ]);
  assert.equal(asked.code, 0, asked.stdout);
  const args = [...doneArgs("s"), "--json", "--items-file", items, "--call-id", "c1"];
  const finished = docket(home, w, args, { input: "body" });
  assert.equal(finished.code, 0, finished.stdout);
  assert.deepEqual(JSON.parse(finished.stdout).items, [{ item: "t1", status: "resolved", reportId: "rp2" }]);
  assert.equal(docket(home, w, args, { input: "body" }).stdout, finished.stdout, "a retry of the same done replays");
  assert.match(
    docket(home, undefined, ["report", w.worker]).stdout,
    /^items:\n {2}t1 done → resolved \(rp2\)$/m,
    "the report finds each item's result under the done call's key",
  );
});
