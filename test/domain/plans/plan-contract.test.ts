// The plan contract parser: sections by heading, bold label or bare label; numbered steps with explicit files only.
// Forgiving and total: every odd body parses to a plan or to undefined, never throws (docs/decisions/plans.md).

import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_PLAN_STEPS, parsePlan } from "../../../src/domain/plans/plan-contract.js";

const FULL = `# Plan: rate limit the login endpoint

## Goal
Add rate limiting to the login endpoint.

## Constraints
- no new dependencies
- keep the public API
  unchanged for clients

## Steps
1. Add the limiter (files: \`src/limit.ts\`, src/app.ts)
2. Wire it into login
   files: ./src/login.ts; src/app.ts.
3) Write the tests

## Verification
- npm test
- curl the endpoint 20 times

## Risks
- clock skew between instances
`;

test("a markdown plan yields goal, constraints, steps with files, verification and risks", () => {
  const plan = parsePlan(FULL);
  assert.deepEqual(plan, {
    goal: "Add rate limiting to the login endpoint.",
    constraints: ["no new dependencies", "keep the public API unchanged for clients"],
    steps: [
      { n: 1, text: "Add the limiter", files: ["src/limit.ts", "src/app.ts"] },
      { n: 2, text: "Wire it into login", files: ["src/login.ts", "src/app.ts"] },
      { n: 3, text: "Write the tests", files: [] },
    ],
    verification: ["npm test", "curl the endpoint 20 times"],
    risks: ["clock skew between instances"],
    files: ["src/limit.ts", "src/app.ts", "src/login.ts"],
  });
});

test("a body with no numbered step is not a plan", () => {
  assert.equal(parsePlan(""), undefined);
  assert.equal(parsePlan("## Goal\nShip it.\n\n## Steps\n- add a thing\n- test it\n"), undefined);
  assert.equal(parsePlan("Just prose that mentions files: a.ts and step 1. nothing else."), undefined);
});

test("numbered lines outside a steps section are not steps", () => {
  assert.equal(parsePlan("## Findings\n1. the cache is stale\n2. the lock leaks\n"), undefined);
  assert.equal(parsePlan("1. first\n2. second\n"), undefined);
});

test("bare Label: lines open sections like headings, and a bare Plan: label opens the steps", () => {
  const plan = parsePlan(
    "Goals:\nfix the flaky test\n\nPlan:\n1. Retry the connection, files: src/db.ts\n2. Add a test\n\nRisks:\n- slower CI\n",
  );
  assert.equal(plan?.goal, "fix the flaky test");
  assert.deepEqual(
    plan?.steps.map((s) => s.text),
    ["Retry the connection", "Add a test"],
  );
  assert.deepEqual(plan?.files, ["src/db.ts"]);
  assert.deepEqual(plan?.risks, ["slower CI"]);
});

test("a line with content after the colon is not a heading", () => {
  const plan = parsePlan("Steps:\n1. Edit the config\nfiles: config.json\nNote: keep the defaults\n2. Restart\n");
  assert.deepEqual(
    plan?.steps.map((s) => [s.text, s.files]),
    [
      ["Edit the config", ["config.json"]],
      ["Restart", []],
    ],
  );
});

test("bold labels and underscore labels open sections, and labels longer than 48 characters do not", () => {
  const plan = parsePlan(
    "**Objective:** ship the fix\n\n__Implementation__\n1. **Edit** the parser — **Files:** src/parse.ts\n\n**Checks:**\n- unit tests\n",
  );
  assert.equal(plan?.goal, "ship the fix");
  assert.deepEqual(plan?.steps, [{ n: 1, text: "**Edit** the parser", files: ["src/parse.ts"] }]);
  assert.deepEqual(plan?.verification, ["unit tests"]);
  const long = `${"A very long label that goes on and on beyond limits"}:`;
  const p2 = parsePlan(`Steps:\n1. one\n${long}\n2. two\n`);
  assert.deepEqual(
    p2?.steps.map((s) => s.text),
    ["one", "two"],
  );
});

test("section synonyms are matched by case-insensitive prefix", () => {
  const body = [
    "## OBJECTIVES",
    "make it fast",
    "## Out of scope",
    "- the UI",
    "## Non-goals",
    "- rewriting",
    "## Approach",
    "1. cache results",
    "## Test plan",
    "- bench",
    "## Open questions",
    "- eviction size?",
    "## Caveats",
    "- memory",
  ].join("\n");
  const plan = parsePlan(body);
  assert.equal(plan?.goal, "make it fast");
  assert.deepEqual(plan?.constraints, ["the UI", "rewriting"]);
  assert.deepEqual(
    plan?.steps.map((s) => s.text),
    ["cache results"],
  );
  assert.deepEqual(plan?.verification, ["bench"]);
  assert.deepEqual(plan?.risks, ["eviction size?", "memory"]);
});

test("an unrecognised heading closes the current section", () => {
  const plan = parsePlan(
    "## Steps\n1. one\n## Background\n2. not a step, files: x.ts\n- not a risk\n## Risks\n- real risk\n",
  );
  assert.deepEqual(
    plan?.steps.map((s) => s.text),
    ["one"],
  );
  assert.deepEqual(plan?.files, []);
  assert.deepEqual(plan?.risks, ["real risk"]);
  const bare = parsePlan("Plan:\n1. one\nContext:\n2. two\n");
  assert.deepEqual(
    bare?.steps.map((s) => s.text),
    ["one"],
  );
});

test("a deeper sub-heading inside the steps keeps the section open, and deeper numbered headings are steps", () => {
  const plan = parsePlan(
    "## Plan\n### Phase A: backend\n1. Add the table (files: db/schema.sql)\n### 2. Expose it (files: src/api.ts)\n### Step 3: Document it\n## Verification\n- run it\n",
  );
  assert.deepEqual(plan?.steps, [
    { n: 1, text: "Add the table", files: ["db/schema.sql"] },
    { n: 2, text: "Expose it", files: ["src/api.ts"] },
    { n: 3, text: "Document it", files: [] },
  ]);
  assert.deepEqual(plan?.verification, ["run it"]);
});

test("a plan written as Step N headings keeps its first step", () => {
  const plan = parsePlan(
    "## Goal\nship\n## Step 1: Add the table\nfiles: db/schema.sql\n## Step 2: Expose it\nfiles: src/api.ts\n## Risks\n- load\n",
  );
  assert.deepEqual(plan?.steps, [
    { n: 1, text: "Add the table", files: ["db/schema.sql"] },
    { n: 2, text: "Expose it", files: ["src/api.ts"] },
  ]);
  assert.deepEqual(plan?.risks, ["load"]);
});

test("numbered section headings are read by their label", () => {
  const plan = parsePlan("## 1. Goal\nship\n## 2. Steps\n1. do it\n## 3. Risks\n- none really\n");
  assert.equal(plan?.goal, "ship");
  assert.deepEqual(
    plan?.steps.map((s) => s.text),
    ["do it"],
  );
  assert.deepEqual(plan?.risks, ["none really"]);
});

test("files clauses on continuation lines, in lists and after blank lines belong to the step above", () => {
  const body = [
    "## Steps",
    "1. Add the limiter",
    "   - touches the middleware",
    "   - Files: src/middleware.ts, `src/limit.ts`",
    "",
    "   File: src/config.ts",
    "2. Write tests. Files:",
    "   - test/limit.test.ts",
    "   - `test/login.test.ts` (new)",
    "3. Update docs",
    "   **Files:**",
    "   - docs/limits.md",
    "   Why: the docs are stale",
  ].join("\n");
  const plan = parsePlan(body);
  assert.deepEqual(plan?.steps, [
    { n: 1, text: "Add the limiter", files: ["src/middleware.ts", "src/limit.ts", "src/config.ts"] },
    { n: 2, text: "Write tests.", files: ["test/limit.test.ts", "test/login.test.ts"] },
    { n: 3, text: "Update docs", files: ["docs/limits.md"] },
  ]);
});

test("files are never inferred from prose", () => {
  const plan = parsePlan("## Steps\n1. Edit src/auth.ts and src/app.ts to add the check\n2. Update `README.md`\n");
  assert.deepEqual(plan?.files, []);
  assert.deepEqual(
    plan?.steps.map((s) => s.files),
    [[], []],
  );
});

test("file paths are cleaned of quotes, emphasis, a leading ./ and trailing punctuation, and de-duplicated", () => {
  const plan = parsePlan(
    "## Steps\n1. Do it; files: \"./a.ts\", 'b.ts', **c.ts**, d.ts., a.ts, src/e.ts) and src/f.ts; none\n",
  );
  assert.deepEqual(plan?.steps[0]?.files, ["a.ts", "b.ts", "c.ts", "d.ts", "src/e.ts", "src/f.ts"]);
  const single = parsePlan("## Steps\n1. Build (files: Makefile)\n2. the files: the whole module\n");
  assert.deepEqual(
    single?.steps.map((s) => s.files),
    [["Makefile"], []],
  );
});

test("nested numbered sub-lists are part of their step, not new steps", () => {
  const plan = parsePlan(
    "## Steps\n1. Migrate\n   1. add column, files: db/001.sql\n   2. backfill\n2. Switch reads\n",
  );
  assert.deepEqual(
    plan?.steps.map((s) => [s.text, s.files]),
    [
      ["Migrate", ["db/001.sql"]],
      ["Switch reads", []],
    ],
  );
});

test("headings and numbers inside fenced code blocks are ignored", () => {
  const plan = parsePlan(
    "## Steps\n1. Run the script\n```bash\n# Tests\n1. not a step files: x.ts\n```\n2. Check output\n",
  );
  assert.deepEqual(
    plan?.steps.map((s) => [s.text, s.files]),
    [
      ["Run the script", []],
      ["Check output", []],
    ],
  );
});

test("CRLF and CR line endings and a byte-order mark parse like LF", () => {
  const lf = "\uFEFF## Goal\nship\n## Steps\n1. one (files: a.ts)\n   files: b.ts\n2. two\n";
  const expected = parsePlan(lf.replace("\uFEFF", ""));
  assert.deepEqual(parsePlan(lf), expected);
  assert.deepEqual(parsePlan(lf.replace(/\n/g, "\r\n")), expected);
  assert.deepEqual(parsePlan(lf.replace(/\n/g, "\r")), expected);
  assert.deepEqual(expected?.files, ["a.ts", "b.ts"]);
});

test("at most 40 steps are read and steps are numbered by position", () => {
  const lines = ["## Steps"];
  for (let i = 1; i <= 45; i++) lines.push(`${i}. step ${i} (files: f${i}.ts)`);
  const plan = parsePlan(lines.join("\n"));
  assert.equal(MAX_PLAN_STEPS, 40);
  assert.equal(plan?.steps.length, 40);
  assert.equal(plan?.files.length, 40);
  assert.equal(plan?.steps[39]?.n, 40);
  const repeated = parsePlan("## Steps\n1. a\n1. b\n1. c\n");
  assert.deepEqual(
    repeated?.steps.map((s) => s.n),
    [1, 2, 3],
  );
});

test("list sections keep at most 12 entries and strip their markers", () => {
  const risks = Array.from({ length: 15 }, (_, i) => `- [ ] risk ${i + 1}`).join("\n");
  const plan = parsePlan(`## Steps\n1. go\n## Risks\n${risks}\n`);
  assert.equal(plan?.risks.length, 12);
  assert.equal(plan?.risks[0], "risk 1");
});

test("a numbered line needs text after its marker, and four-digit numbers are not steps", () => {
  assert.equal(parsePlan("## Steps\n1.\n1000. big\n1.5 seconds\n"), undefined);
});

test("an inline Goal: line is the goal, while other labels with content are not headings", () => {
  const plan = parsePlan("Goal: remove the dead flag\nRisk: low\nSteps:\n1. delete it (files: src/flags.ts)\n");
  assert.equal(plan?.goal, "remove the dead flag");
  assert.deepEqual(plan?.risks, []);
});

test("a bold label followed by content opens its list section with that content", () => {
  const plan = parsePlan(
    "**Goal**: add a --verbose flag\n\n**Steps**\n1. Parse it — files: src/cli.ts\n**Verification**: run `npm test`\n**Risks:** none known\n- flag name clash\n",
  );
  assert.equal(plan?.goal, "add a --verbose flag");
  assert.deepEqual(plan?.steps, [{ n: 1, text: "Parse it", files: ["src/cli.ts"] }]);
  assert.deepEqual(plan?.verification, ["run `npm test`"]);
  assert.deepEqual(plan?.risks, ["none known", "flag name clash"]);
  const nested = parsePlan("## Steps\n1. Parse it\n   **Tests:** cover the flag, files: test/cli.test.ts\n2. Ship\n");
  assert.deepEqual(
    nested?.steps.map((s) => [s.text, s.files]),
    [
      ["Parse it", ["test/cli.test.ts"]],
      ["Ship", []],
    ],
  );
  assert.deepEqual(nested?.verification, []);
});

test("hostile and odd bodies never throw", () => {
  const bodies = [
    "#",
    "##",
    "**",
    "****",
    ":",
    "Steps:\n1. ",
    "## Steps\n1. files:",
    "## Steps\n1. x (files: (((",
    "```\n## Steps\n1. a",
    "\u0000\u0001",
    `## Steps\n${"1. files: ".repeat(5000)}`,
  ];
  for (const b of bodies) assert.doesNotThrow(() => parsePlan(b));
  assert.deepEqual(parsePlan("## Steps\n1. x (files: (((")?.steps[0]?.files, []);
});
