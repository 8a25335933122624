// Runs every compiled test file under dist/test with node's test runner (benchmarks live elsewhere).
// Usage: node scripts/run-tests.mjs [--install] [substring filter ...]; the slow dist/test/install/ runs only with --install.
import { spawnSync } from "node:child_process";
import { INSTALL_ROOT, runnerArgs, testFiles } from "./test-files.mjs";

const install = process.argv.includes("--install");
const root = install ? INSTALL_ROOT : "dist/test";
const files = testFiles(
  process.argv.slice(2).filter((a) => a !== "--install"),
  root,
);
if (files.length === 0) {
  console.error(`no test files found under ${root}`);
  process.exit(1);
}
const r = spawnSync(process.execPath, runnerArgs(files, [], { install }), { stdio: "inherit" });
process.exit(r.status ?? 1);
