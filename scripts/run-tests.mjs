// Runs every compiled test file under dist/test with node's test runner (benchmarks live elsewhere).
// Usage: node scripts/run-tests.mjs [substring filter ...]
import { spawnSync } from "node:child_process";
import { runnerArgs, testFiles } from "./test-files.mjs";

const files = testFiles(process.argv.slice(2));
if (files.length === 0) {
  console.error("no test files found under dist/test");
  process.exit(1);
}
const r = spawnSync(process.execPath, runnerArgs(files), { stdio: "inherit" });
process.exit(r.status ?? 1);
