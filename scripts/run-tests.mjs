// Runs every compiled test file under dist/test with node's test runner (benchmarks live elsewhere).
// Usage: node scripts/run-tests.mjs [--install] [substring filter ...]; the slow dist/test/install/ runs only with --install.
// Prints files done / total and each failure as it happens on stderr; node's own report is unchanged on stdout.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
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
// Node's own reporter stays as node would pick it (CI reads its closing summary on stdout); beside it, on stderr,
// files done out of the total and each failure as it happens (scripts/progress-reporter.mjs).
const major = Number(process.versions.node.split(".")[0]);
const nodeDefault = process.stdout.isTTY || major >= 23 ? "spec" : "tap";
const progress = fileURLToPath(new URL("./progress-reporter.mjs", import.meta.url));
const reporters = [
  `--test-reporter=${nodeDefault}`,
  "--test-reporter-destination=stdout",
  `--test-reporter=${progress}`,
  "--test-reporter-destination=stderr",
];
const r = spawnSync(process.execPath, runnerArgs(files, reporters, { install }), {
  stdio: "inherit",
  env: { ...process.env, DOCKET_TEST_FILES_TOTAL: String(files.length) },
});
process.exit(r.status ?? 1);
