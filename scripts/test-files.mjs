// The suite as both test scripts run it: the compiled test files under dist/test (only paths containing one of the
// filters, when given) and node's test-runner arguments (concurrency 2 unless DOCKET_TEST_CONCURRENCY says otherwise).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export function testFiles(filters, root = "dist/test") {
  const files = [];
  (function walk(dir) {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".test.js") && (filters.length === 0 || filters.some((f) => p.includes(f)))) files.push(p);
    }
  })(root);
  return files;
}

export function runnerArgs(files, extra = []) {
  const concurrency = process.env.DOCKET_TEST_CONCURRENCY ?? "2";
  return ["--test", `--test-concurrency=${concurrency}`, "--test-timeout=180000", ...extra, ...files];
}
