// Runs every compiled test file under dist/test with node's test runner (benchmarks live elsewhere).
// Usage: node scripts/run-tests.mjs [--install] [substring filter ...]; the slow dist/test/install/ runs only with --install.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const install = process.argv.includes("--install");
const root = install ? "dist/test/install" : "dist/test";
const filters = process.argv.slice(2).filter((a) => a !== "--install");
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (p !== "dist/test/install" || install) walk(p);
    } else if (name.endsWith(".test.js") && (filters.length === 0 || filters.some((f) => p.includes(f)))) files.push(p);
  }
})(root);
if (files.length === 0) {
  console.error(`no test files found under ${root}`);
  process.exit(1);
}
const concurrency = process.env.DOCKET_TEST_CONCURRENCY ?? "2";
const timeout = install ? 1_800_000 : 180_000;
const r = spawnSync(process.execPath, ["--test", `--test-concurrency=${concurrency}`, `--test-timeout=${timeout}`, ...files], { stdio: "inherit" });
process.exit(r.status ?? 1);
