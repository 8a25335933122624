// Runs every compiled test file under dist/test with node's test runner (benchmarks live elsewhere).
// Usage: node scripts/run-tests.mjs [substring filter ...]
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const root = "dist/test";
const filters = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith(".test.js") && (filters.length === 0 || filters.some((f) => p.includes(f)))) files.push(p);
  }
})(root);
if (files.length === 0) {
  console.error("no test files found under dist/test");
  process.exit(1);
}
const concurrency = process.env.DOCKET_TEST_CONCURRENCY ?? "2";
const r = spawnSync(process.execPath, ["--test", `--test-concurrency=${concurrency}`, "--test-timeout=180000", ...files], { stdio: "inherit" });
process.exit(r.status ?? 1);
