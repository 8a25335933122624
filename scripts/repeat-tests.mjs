// Runs the suite (or the files matching the filters) N times in a row, then lists every test that failed in any run
// and in how many runs; exits 1 when any did. Proves the suite deterministic. Usage: node scripts/repeat-tests.mjs N [filter ...]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runnerArgs, testFiles } from "./test-files.mjs";

const [count, ...filters] = process.argv.slice(2);
const runs = Number(count);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(
    `usage: npm run test:repeat -- N [filter ...]  (N a positive number of runs; got ${JSON.stringify(count ?? "")})`,
  );
  process.exit(2);
}
const files = testFiles(filters);
if (files.length === 0) {
  console.error("no test files found under dist/test");
  process.exit(1);
}
const reporter = resolve(fileURLToPath(new URL("failures-reporter.mjs", import.meta.url)));
const logs = mkdtempSync(join(tmpdir(), "docket-repeat-"));
/** "file › test name" → the runs it failed in and its first error. */
const failed = new Map();
const runFailures = [];
const seconds = [];
const started = Date.now();
for (let run = 1; run <= runs; run++) {
  const list = join(logs, `run-${run}.failures.ndjson`);
  const runStart = Date.now();
  console.log(`\n── run ${run} of ${runs} (${files.length} files) ──`);
  const reporters = [
    "--test-reporter=dot",
    "--test-reporter-destination=stdout",
    `--test-reporter=${reporter}`,
    `--test-reporter-destination=${list}`,
  ];
  const r = spawnSync(process.execPath, runnerArgs(files, reporters), { stdio: "inherit" });
  seconds.push(Math.round((Date.now() - runStart) / 1000));
  const lines = readFileSync(list, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  for (const f of lines) {
    const key = `${relative(process.cwd(), f.file) || "(runner)"} › ${f.name}`;
    const entry = failed.get(key) ?? { runs: new Set(), error: f.error };
    entry.runs.add(run);
    failed.set(key, entry);
  }
  if (r.status !== 0 && lines.length === 0)
    runFailures.push(`run ${run}: the runner exited ${r.status ?? r.signal} with no failed test recorded`);
  console.log(
    `run ${run}: ${lines.length === 0 && r.status === 0 ? "passed" : `${lines.length} failed`} in ${seconds.at(-1)} s`,
  );
}

const total = Math.round((Date.now() - started) / 1000);
console.log(
  `\n══ ${runs} run${runs === 1 ? "" : "s"} in ${total} s (${seconds.map((s) => `${s} s`).join(", ")}); logs in ${logs}`,
);
for (const problem of runFailures) console.log(problem);
if (failed.size === 0 && runFailures.length === 0) {
  console.log("no test failed in any run");
  process.exit(0);
}
for (const [name, { runs: inRuns, error }] of [...failed].sort((a, b) => b[1].runs.size - a[1].runs.size)) {
  console.log(`failed in ${inRuns.size} of ${runs} runs (run ${[...inRuns].join(", ")}): ${name}\n    ${error}`);
}
process.exit(1);
