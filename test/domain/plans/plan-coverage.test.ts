// Plan coverage compares the files a plan named with the files a frozen patch changed (docs/decisions/plans.md).
// `touched` counts distinct planned files, so a suffix match never over-counts (anchor weakness 15).

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Plan } from "../../../src/domain/plans/plan-contract.js";
import { parsePlan } from "../../../src/domain/plans/plan-contract.js";
import {
  formatPlanCoverageLine,
  isCoverageWarning,
  isPlannedPathMatch,
  resolvePlanCoverage,
  resolveSourcePlanCoverage,
} from "../../../src/domain/plans/plan-coverage.js";

const planWith = (files: string[], steps = 2): Plan => ({
  constraints: [],
  steps: Array.from({ length: steps }, (_, i) => ({ n: i + 1, text: `step ${i + 1}`, files: i === 0 ? files : [] })),
  verification: [],
  risks: [],
  files,
});

test("touched, untouched and off-plan files are derived from the plan and the change set", () => {
  const c = resolvePlanCoverage(planWith(["src/auth.ts", "src/app.ts", "test/auth.test.ts"], 3), [
    "src/auth.ts",
    "README.md",
  ]);
  assert.deepEqual(c, {
    steps: 3,
    planned: ["src/auth.ts", "src/app.ts", "test/auth.test.ts"],
    touched: ["src/auth.ts"],
    offPlan: ["README.md"],
    untouched: ["src/app.ts", "test/auth.test.ts"],
  });
  assert.equal(
    formatPlanCoverageLine(c, "worker-deliverable:w1:2"),
    "plan worker-deliverable:w1:2 · 3 steps · 1/3 planned files touched · 2 untouched · 1 off-plan",
  );
  assert.equal(isCoverageWarning(c), true);
});

test("a suffix after a slash matches in both directions, but a bare suffix does not", () => {
  assert.equal(isPlannedPathMatch("auth.ts", "src/auth.ts"), true);
  assert.equal(isPlannedPathMatch("src/lib/auth.ts", "lib/auth.ts"), true);
  assert.equal(isPlannedPathMatch("./src/auth.ts", "src/auth.ts"), true);
  assert.equal(isPlannedPathMatch("auth.ts", "src/oauth.ts"), false);
  assert.equal(isPlannedPathMatch("src/auth.ts", "src/auth.tsx"), false);
});

test("touched counts distinct planned files even when several changed files match one entry", () => {
  const c = resolvePlanCoverage(planWith(["index.ts", "src/db.ts"]), ["src/index.ts", "test/index.ts", "lib/index.ts"]);
  assert.deepEqual(c.touched, ["index.ts"]);
  assert.deepEqual(c.untouched, ["src/db.ts"]);
  assert.deepEqual(c.offPlan, []);
  assert.match(formatPlanCoverageLine(c, "r"), / 1\/2 planned files touched · 1 untouched · 0 off-plan$/);
});

test("a planned directory or glob covers the files under it", () => {
  const c = resolvePlanCoverage(planWith(["src/auth/", "test/**/*.test.ts"]), [
    "src/auth/login.ts",
    "test/unit/a.test.ts",
    "src/authz.ts",
  ]);
  assert.deepEqual(c.touched, ["src/auth/", "test/**/*.test.ts"]);
  assert.deepEqual(c.offPlan, ["src/authz.ts"]);
});

test("a change set exactly on plan is no warning", () => {
  const c = resolvePlanCoverage(planWith(["a.ts", "b.ts"], 1), ["b.ts", "a.ts", "a.ts"]);
  assert.deepEqual(c.offPlan, []);
  assert.deepEqual(c.untouched, []);
  assert.equal(isCoverageWarning(c), false);
  assert.equal(
    formatPlanCoverageLine(c, "ref"),
    "plan ref · 1 step · 2/2 planned files touched · 0 untouched · 0 off-plan",
  );
});

test("a plan that names no files shows no drift and says so", () => {
  const c = resolvePlanCoverage(planWith([], 4), ["src/a.ts"]);
  assert.deepEqual(c, { steps: 4, planned: [], touched: [], offPlan: [], untouched: [] });
  assert.equal(isCoverageWarning(c), false);
  assert.equal(
    formatPlanCoverageLine(c, "worker-deliverable:w3:1"),
    "plan worker-deliverable:w3:1 · 4 steps · no files named",
  );
});

test("an untouched planned file alone is a warning, as is an off-plan file alone", () => {
  assert.equal(isCoverageWarning(resolvePlanCoverage(planWith(["a.ts", "b.ts"]), ["a.ts"])), true);
  assert.equal(isCoverageWarning(resolvePlanCoverage(planWith(["a.ts"]), ["a.ts", "c.ts"])), true);
});

test("coverage runs on a parsed plan: one planned file touched and one off-plan file", () => {
  const plan = parsePlan(
    "## Plan\n1. Limit logins (files: src/limit.ts)\n2. Wire it (files: src/app.ts)\n3. Test it (files: test/limit.test.ts)\n",
  );
  assert.ok(plan);
  const c = resolvePlanCoverage(plan, ["src/limit.ts", "notes.md"]);
  assert.equal(
    formatPlanCoverageLine(c, "worker-deliverable:w1:1"),
    "plan worker-deliverable:w1:1 · 3 steps · 1/3 planned files touched · 2 untouched · 1 off-plan",
  );
});

test("a handoff source that is missing or not a plan yields no coverage", () => {
  assert.equal(resolveSourcePlanCoverage(undefined, ["a.ts"]), null);
  assert.equal(resolveSourcePlanCoverage("## Findings\n1. the cache is stale\n", ["a.ts"]), null);
  assert.deepEqual(resolveSourcePlanCoverage("Plan:\n1. edit (files: a.ts)\n", ["a.ts", "b.ts"]), {
    steps: 1,
    planned: ["a.ts"],
    touched: ["a.ts"],
    offPlan: ["b.ts"],
    untouched: [],
  });
});

test("coverage found through base names equals trying every planned × changed pair, odd paths included", () => {
  const pool = [
    "src/auth.ts",
    "auth.ts",
    "lib/auth.ts",
    "src/lib/auth.ts",
    "./src/auth.ts",
    " ./ ./src/auth.ts",
    "src/auth.tsx",
    "oauth.ts",
    "src/auth/",
    "src/auth/login.ts",
    "test/**/*.test.ts",
    "test/unit/a.test.ts",
    "*.md",
    "README.md",
    "docs/README.md",
    "/abs/auth.ts",
    "a/*/*/*/*.ts",
    "x/",
    "x",
    "dir/x",
    " ",
    "",
    "./",
    "src//auth.ts",
    "**",
    "a*b",
    "a/b*",
    "deep/a/b/c.ts",
    "b/c.ts",
    "c.ts",
  ];
  let seed = 17;
  const pick = (n: number) =>
    Array.from({ length: n }, () => pool[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % pool.length]!);
  for (let round = 0; round < 400; round++) {
    const plannedFiles = pick(1 + (round % 9));
    const changedFiles = pick(round % 11);
    const planned = [...new Set(plannedFiles.map((p) => p.trim().replace(/^(?:\.\/)+/, "")).filter((p) => p !== ""))];
    const changed = [...new Set(changedFiles.map((p) => p.trim().replace(/^(?:\.\/)+/, "")).filter((p) => p !== ""))];
    const touched = planned.filter((p) => changed.some((c) => isPlannedPathMatch(p, c)));
    const expected =
      planned.length === 0
        ? { steps: 2, planned, touched: [], offPlan: [], untouched: [] }
        : {
            steps: 2,
            planned,
            touched,
            offPlan: changed.filter((c) => !planned.some((p) => isPlannedPathMatch(p, c))),
            untouched: planned.filter((p) => !touched.includes(p)),
          };
    assert.deepEqual(
      resolvePlanCoverage(planWith(plannedFiles), changedFiles),
      expected,
      `planned ${JSON.stringify(plannedFiles)} changed ${JSON.stringify(changedFiles)}`,
    );
  }
});
