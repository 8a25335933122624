// Plan, then implement, end to end with real pi workers and the scripted model: an architect publishes
// a plan, the human approves it, Implement starts an implementer whose task.md shows the discharge, it edits one
// planned and one off-plan file, and the verdict shows 1 of 2 planned files touched and 1 off-plan.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertExit, cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { scriptedPi, UNGATED_KIND, scriptedModelFlags } from "../../support/scripted-pi.js";
import { tempDir } from "../../support/temp.js";
import { waitFor } from "../../support/wait.js";

const PLAN = [
  "Goal: make a.js and b.js agree",
  "",
  "Steps:",
  "1. Update the constant in a.js",
  "   files: a.js",
  "2. Mirror it in b.js. files: `b.js`",
  "",
  "Verification:",
  "- node a.js",
].join("\n");

test("architect → approve → implement → verdict shows plan coverage with an off-plan file", {
  timeout: 150_000,
}, async (t) => {
  const pi = scriptedPi(t);
  const repo = gitRepo(tempDir(t), { "a.js": "export const A = 1;\n", "b.js": "export const B = 1;\n" });
  const run = (...args: string[]) => docket({ env: cliEnv(pi.vars), cwd: repo }, ...args);
  const workerState = (w: string) => () => {
    const ls = jsonOf(run("ls", "--json")) as { workers: { worker: string; state: string }[] };
    const row = ls.workers.find((x) => x.worker === w);
    return row && row.state === "ready" ? row : undefined;
  };

  const architectScript = pi.script("architect.json", [
    {
      text: PLAN,
      toolCall: {
        name: "docket_done",
        id: "plan-1",
        arguments: { outcome: "proposal", summary: "two-step plan", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "published" },
  ]);
  const spawned = run(
    "spawn",
    "--as",
    "architect",
    ...scriptedModelFlags(architectScript),
    "--yes",
    "--json",
    "Plan the constants",
  );
  assert.equal(spawned.code, 0, spawned.stderr);
  assert.equal(spawned.json.execution.workspace, "shared");
  await waitFor("the architect's plan", workerState("w1"), 60_000, 200);

  const approved = run("approve", "w1", "--json");
  assert.equal(approved.code, 0, approved.stderr);
  assert.equal(approved.json.decision.verb, "approve");
  assert.equal(
    jsonOf(run("verdict", "w1", "--json")).actions[0],
    "use --implement",
    "Implement is offered first on an approved plan",
  );

  const implementerScript = pi.script("implementer.json", [
    {
      toolCalls: [
        { name: "write", arguments: { path: "a.js", content: "export const A = 2;\n" } },
        { name: "write", arguments: { path: "notes.txt", content: "not in the plan\n" } },
      ],
    },
    {
      text: "Changed a.js (and left a note).",
      toolCall: {
        name: "docket_done",
        id: "impl-1",
        arguments: {
          outcome: "completed",
          summary: "a.js updated",
          evidence: [{ kind: "note", text: "b.js skipped" }],
          recommendations: [],
          items: [],
        },
      },
    },
    { text: "done" },
  ]);
  const used = run("use", "w1", "--implement", ...scriptedModelFlags(implementerScript), "--yes", "--json");
  assert.equal(used.code, 0, used.stderr);
  assert.equal(used.json.worker, "w2");
  assert.equal(used.json.kind, "implementer");
  assert.equal(used.json.planGate, "discharged");
  assert.equal(used.json.sourceHandoff.sourceRef, "worker-deliverable:w1:1");
  assert.equal(used.json.sourceHandoff.approvingDecisionId, approved.json.decision.id);

  const taskMd = readFileSync(join(pi.vars.DOCKET_HOME, "fleet", "w2", "task.md"), "utf8");
  assert.match(taskMd, /worker-deliverable:w1:1/);
  assert.match(taskMd, new RegExp(approved.json.decision.id));
  assert.match(taskMd, new RegExp(used.json.sourceHandoff.useDecisionId));
  assert.match(taskMd, /docket_todos/);
  assert.equal(readFileSync(join(pi.vars.DOCKET_HOME, "fleet", "w2", "source-deliverable.md"), "utf8"), PLAN);

  await waitFor("the implementer's deliverable", workerState("w2"), 60_000, 200);
  const verdict = run("verdict", "w2", "--json");
  assert.equal(verdict.code, 0, verdict.stderr);
  assert.deepEqual(verdict.json.planCoverage, {
    steps: 2,
    planned: ["a.js", "b.js"],
    touched: ["a.js"],
    offPlan: ["notes.txt"],
    untouched: ["b.js"],
  });
  assert.ok(verdict.json.warnings.some((w: { kind: string }) => w.kind === "plan-coverage"));
  const text = run("verdict", "w2");
  assert.match(text.stdout, /2 steps · 1\/2 planned files touched · 1 untouched · 1 off-plan/);
  const report = assertExit(run("report", "w2", "--json"));
  assert.deepEqual(report.json.planCoverage, verdict.json.planCoverage);
});

test("Implement is refused for a version that carries a patch, and a plain proposal without steps shows no coverage", {
  timeout: 120_000,
}, async (t) => {
  const pi = scriptedPi(t);
  const repo = gitRepo(tempDir(t), { "a.js": "export const A = 1;\n" });
  const run = (...args: string[]) => docket({ env: cliEnv(pi.vars), cwd: repo }, ...args);
  const script = pi.script("patcher.json", [
    { toolCall: { name: "write", arguments: { path: "a.js", content: "export const A = 3;\n" } } },
    {
      text: "Set A to 3.",
      toolCall: {
        name: "docket_done",
        id: "p-1",
        arguments: { outcome: "completed", summary: "A is 3", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "done" },
  ]);
  assertExit(run("spawn", "--as", UNGATED_KIND, ...scriptedModelFlags(script), "--yes", "Set A"));
  await waitFor(
    "the patcher's deliverable",
    () => {
      const ls = jsonOf(run("ls", "--json")) as { workers: { worker: string; state: string }[] };
      return ls.workers.find((w) => w.worker === "w1" && w.state === "ready");
    },
    60_000,
    200,
  );
  assertExit(run("approve", "w1"));
  const refused = run("use", "w1", "--implement", "--yes", "--json");
  assertExit(refused, 1);
  assert.equal(refused.json.error.code, "implement-has-patch");
  assert.equal(jsonOf(run("ls", "--json")).workers.length, 1, "nothing was started");
  assert.equal(jsonOf(run("verdict", "w1", "--json")).planCoverage, null);
});
