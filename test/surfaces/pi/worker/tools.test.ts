// The real pi CLI with the scripted model and the worker tools, in -p mode.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PI_HERMETIC } from "../../../support/docket-cli.js";
import { DOCKET_EXTENSION, hermeticPiArgs, SCRIPTED_MODEL } from "../../../support/pi-rpc.js";
import { workLedger } from "../../../support/work-ledger.js";
import { isolatedWorker, type ProtocolWorker } from "../../../support/protocol-worker.js";
import { git } from "../../../support/git.js";
import { tempDir } from "../../../support/temp.js";
import { listDeliverableVersions, readDeliverable } from "../../../../src/files/workers/deliverables.js";
import type { EngineContext } from "../../../../src/engine/context.js";
import type { WorkerDeliverable } from "../../../../src/domain/deliverables/deliverable.js";

let shared: string; // pi's agent dir and jiti cache, shared by the runs of this file so transpiling happens once
before(() => {
  shared = mkdtempSync(join(tmpdir(), "docket-pi-e2e-"));
  mkdirSync(join(shared, "agent"));
  mkdirSync(join(shared, "tmp"));
});
after(() => rmSync(shared, { recursive: true, force: true }));

interface PiRun {
  status: number | null;
  stdout: string;
  stderr: string;
  served: number;
}

function runPi(
  t: { after(fn: () => void): void },
  ctx: EngineContext,
  w: ProtocolWorker,
  script: unknown[],
  options: { generation?: number; mode?: "json" } = {},
): PiRun {
  const dir = tempDir(t, "docket-pi-run-");
  writeFileSync(join(dir, "script.json"), JSON.stringify(script));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    PI_CODING_AGENT_DIR: join(shared, "agent"),
    ...PI_HERMETIC,
    TMPDIR: join(shared, "tmp"),
    DOCKET_HOME: ctx.home.root,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: String(options.generation ?? w.generation),
    DOCKET_RUN_TOKEN: w.runToken,
    DOCKET_SCRIPTED_MODEL: join(dir, "script.json"),
    DOCKET_SCRIPTED_MODEL_LOG: join(dir, "model.log"),
  };
  const args = hermeticPiArgs([SCRIPTED_MODEL, DOCKET_EXTENSION]);
  args.push(...(options.mode === "json" ? ["--mode", "json", "go"] : ["-p", "go"]));
  const r = spawnSync(process.execPath, args, {
    cwd: w.workspace,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  let served = 0;
  try {
    served = readFileSync(join(dir, "model.log"), "utf8")
      .split("\n")
      .filter((l) => l.includes('"exhausted":false')).length;
  } catch {
    served = 0; // the model was never called: the assertions on `served` report it
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, served };
}

const sidecar = (ctx: EngineContext, worker: string, version: number): WorkerDeliverable => {
  const read = readDeliverable(ctx.home, worker, version);
  assert.ok(read.ok, read.ok ? "" : read.reason);
  return read.deliverable;
};

const BODY_1 = "## Feature\r\nAdded feature.txt   \r\nNon-ASCII: café — ✓ 日本語\n\n\ttabbed line  \n";
const BODY_3 = "Second version: findings only.";

test("a real pi worker edits a file, repeats a done call id (one version) and makes a second version with a new id", (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const run = runPi(t, ctx, w, [
    {
      text: "Writing the feature.",
      toolCall: { name: "write", arguments: { path: "feature.txt", content: "feature\nline two\n" } },
    },
    {
      text: BODY_1,
      toolCall: {
        name: "docket_done",
        id: "call-one",
        arguments: {
          outcome: "completed",
          summary: "added feature.txt",
          evidence: [{ kind: "test", text: "cat feature.txt" }],
          recommendations: ["merge"],
        },
      },
    },
    {
      text: "Repeating the same call.",
      toolCall: {
        name: "docket_done",
        id: "call-one",
        arguments: { outcome: "completed", summary: "added feature.txt" },
      },
    },
    {
      text: BODY_3,
      toolCall: { name: "docket_done", id: "call-two", arguments: { outcome: "findings", summary: "second look" } },
    },
    { text: "All published." },
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.served, 5);
  assert.match(run.stdout, /All published\./);
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), [1, 2]);
  const v1 = sidecar(ctx, w.worker, 1);
  const v2 = sidecar(ctx, w.worker, 2);
  assert.equal(v1.body, BODY_1, "v1's body is the full assistant text, byte for byte");
  assert.equal(v1.toolCallId, "call-one");
  assert.deepEqual(v1.evidence, [{ kind: "test", text: "cat feature.txt" }]);
  assert.equal(v2.body, BODY_3);
  assert.equal(v2.outcome, "findings");
  assert.deepEqual(v1.changeSet!.files, [{ path: "feature.txt", additions: 2, deletions: 0 }]);
  const worker = ctx.db.prepare("SELECT state, deliverable_version FROM workers WHERE id = ?").get(w.worker);
  assert.deepEqual({ ...(worker as object) }, { state: "ready", deliverable_version: 2 });

  const fresh = join(tempDir(t, "docket-apply-"), "wt");
  git(w.project, "worktree", "add", "-q", "--detach", fresh, w.base);
  writeFileSync(join(fresh, "..", "v1.patch"), v1.changeSet!.patch);
  git(fresh, "apply", "--check", join(fresh, "..", "v1.patch"));
  git(fresh, "apply", join(fresh, "..", "v1.patch"));
  assert.equal(readFileSync(join(fresh, "feature.txt"), "utf8"), "feature\nline two\n");
});

test("docket_wait ends the worker's turn in the real pi and leaves it needing input", (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const run = runPi(t, ctx, w, [
    {
      text: "I need a decision.",
      toolCall: {
        name: "docket_wait",
        id: "wait-1",
        arguments: { question: "Which file name?", options: ["a.txt", "b.txt"], recommend: "a.txt" },
      },
    },
    { text: "THIS STEP MUST NOT BE SERVED" },
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.served, 1, "no model call after docket_wait");
  const q = ctx.db.prepare("SELECT text, options, state FROM questions WHERE worker = ?").get(w.worker);
  assert.deepEqual({ ...(q as object) }, { text: "Which file name?", options: '["a.txt","b.txt"]', state: "open" });
  assert.equal(
    (ctx.db.prepare("SELECT state FROM workers WHERE id = ?").get(w.worker) as { state: string }).state,
    "needs_input",
  );
});

test("a pi worker of a replaced generation gets the fence refusal as its tool error and publishes nothing", (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const run = runPi(
    t,
    ctx,
    w,
    [
      {
        text: "Done.",
        toolCall: { name: "docket_done", id: "call-x", arguments: { outcome: "completed", summary: "s" } },
      },
      { text: "ok" },
    ],
    { generation: 2, mode: "json" },
  );
  assert.equal(run.status, 0, run.stderr);
  const end = run.stdout
    .split("\n")
    .filter((l) => l.includes('"type":"tool_execution_end"'))
    .map((l) => JSON.parse(l) as { isError: boolean; result: { content: { text: string }[] } });
  assert.equal(end.length, 1);
  assert.equal(end[0]!.isError, true);
  assert.match(end[0]!.result.content[0]!.text, /generation 2 was replaced by generation 1; this process was replaced/);
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), []);
});
