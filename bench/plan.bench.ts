// Benchmark: parsePlan over 10,000 varied plan bodies, beside merely splitting the same bodies into lines.
// Prints figures only (never a timed test); the parser must stay linear and close to the cost of a split.

import { performance } from "node:perf_hooks";
import { parsePlan } from "../src/domain/plans/plan-contract.js";
import { resolvePlanCoverage } from "../src/domain/plans/plan-coverage.js";
import { parsePatchRanges } from "../src/domain/deliverables/patch-ranges.js";
import { figure } from "./support/figure.js";

function createBody(i: number): string {
  const steps = 3 + (i % 12);
  const lines = [
    `# Plan: change ${i}`,
    "",
    "## Goal",
    `Make feature ${i} work without regressions.`,
    "",
    "## Constraints",
    "- no new dependencies",
    "- keep the public API",
    "",
    "## Steps",
  ];
  for (let s = 1; s <= steps; s++) {
    lines.push(`${s}. Update module ${s} of feature ${i} (files: \`src/f${i}/m${s}.ts\`, test/m${s}.test.ts)`);
    if (s % 3 === 0) lines.push(`   files: src/shared/util${s}.ts; ./docs/m${s}.md.`);
    if (s % 4 === 0) lines.push("   ```ts", "   # not a heading", "   1. not a step", "   ```");
  }
  lines.push(
    "",
    "## Verification",
    "- npm test",
    "- run the bench",
    "",
    "## Risks",
    "- timing",
    "- migration order",
    "",
    "Some closing prose that mentions src/ignored.ts.",
  );
  const body = lines.join("\n");
  return i % 5 === 0 ? body.replace(/\n/g, "\r\n") : body;
}

/** What a deliverable of plan i changed: the files of its first three steps (some written `./x`), and two off-plan. */
function changedFiles(i: number): string[] {
  const out: string[] = [];
  for (let s = 1; s <= 3; s++) out.push(`src/f${i}/m${s}.ts`, s === 2 ? `./test/m${s}.test.ts` : `test/m${s}.test.ts`);
  out.push("src/shared/util3.ts", `src/extra/x${i}.ts`, "README.md");
  return out;
}

const N = 10_000;
const bodies = Array.from({ length: N }, (_, i) => createBody(i));
const changed = Array.from({ length: N }, (_, i) => changedFiles(i));
const bytes = bodies.reduce((n, b) => n + b.length, 0);

/** Median of 5 runs, in wall time and in this process's CPU time (the machine may be shared with other work). */
function time(label: string, fn: () => number): { wall: number; cpu: number } {
  fn(); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  let check = 0;
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    check = fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[2]!;
  const rate = (ms: number): string =>
    Math.round((N / ms) * 1000)
      .toLocaleString("en-US")
      .padStart(10);
  console.log(
    `${label.padEnd(22)} wall ${median(wall).toFixed(1).padStart(7)} ms ${rate(median(wall))} bodies/s · cpu ${median(cpu).toFixed(1).padStart(7)} ms ${rate(median(cpu))} bodies/s  (check ${check})`,
  );
  return { wall: median(wall), cpu: median(cpu) };
}

console.log(`${N} plan bodies, ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
const split = time("split into lines", () => bodies.reduce((n, b) => n + b.split(/\r\n|\r|\n/).length, 0));
const parse = time("parsePlan", () => bodies.reduce((n, b) => n + (parsePlan(b)?.files.length ?? 0), 0));
const pairs = bodies.reduce((n, b, i) => n + (parsePlan(b)?.files.length ?? 0) * changed[i]!.length, 0);
const covered = time("parsePlan + coverage", () =>
  bodies.reduce((n, b, i) => {
    const plan = parsePlan(b);
    return n + (plan ? resolvePlanCoverage(plan, changed[i]!).touched.length : 0);
  }, 0),
);
const ratio = (x: { wall: number; cpu: number }) =>
  `×${(x.wall / split.wall).toFixed(1)} wall, ×${(x.cpu / split.cpu).toFixed(1)} cpu`;
const perSec = (ms: number): number => (N / ms) * 1000;
figure({
  id: "plan-parse",
  label: `parse a plan (${N.toLocaleString("en-US")} bodies)`,
  value: perSec(parse.wall),
  unit: "/s",
  baseline: { label: "split into lines", value: perSec(split.wall) },
});
figure({
  id: "plan-coverage",
  label: "parse a plan + its coverage against its changed files",
  value: perSec(covered.wall),
  unit: "/s",
  baseline: { label: "split into lines", value: perSec(split.wall) },
});
console.log(
  `of the split: parsePlan ${ratio(parse)}; parsePlan + coverage ${ratio(covered)} (aim ≤ ×10; ${pairs.toLocaleString("en-US")} planned × changed pairs)`,
);

const hunks = Array.from(
  { length: 200 },
  (_, h) => `@@ -${h * 20 + 1},7 +${h * 20 + 1},7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g`,
).join("\n");
const patch = Array.from(
  { length: 50 },
  (_, f) => `diff --git a/f${f}.ts b/f${f}.ts\n--- a/f${f}.ts\n+++ b/f${f}.ts\n${hunks}`,
).join("\n");
const t0 = performance.now();
const files = parsePatchRanges(patch);
console.log(
  `parsePatchRanges: ${files.length} files × 200 hunks (${(patch.length / 1024 / 1024).toFixed(1)} MiB) in ${(performance.now() - t0).toFixed(1)} ms`,
);

// Hostile shapes: each must stay linear in its size (a quadratic regex would take minutes here).
const big = 200_000;
const hostile: [string, string][] = [
  [
    "long run of spaces",
    `## Steps\n1. a${" ".repeat(big)}b files: x.ts${" ".repeat(big)}y\n# a${" ".repeat(big)}b\n**a**${" ".repeat(big)}*`,
  ],
  ["many clauses", `## Steps\n1. ${"files: a.ts, ".repeat(big / 10)}`],
  ["punctuation token", `## Steps\n1. x files: ${".".repeat(big)}a ${"*".repeat(big)}a ${"'".repeat(big)}a`],
  ["many lines", `## Steps\n${"1. step (files: a.ts)\n   files: b.ts\n".repeat(big / 10)}`],
  ["goal spaces", `goal${" ".repeat(big)}x\nGoal:${" ".repeat(big)}\n## Steps\n1. x`],
];
for (const [label, body] of hostile) {
  const h0 = performance.now();
  parsePlan(body);
  console.log(
    `hostile ${label.padEnd(20)} ${(body.length / 1024).toFixed(0).padStart(6)} KiB in ${(performance.now() - h0).toFixed(1)} ms`,
  );
}
