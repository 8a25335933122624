// The suite as both test scripts run it: the compiled test files under dist/test (only paths containing one of the
// filters, when given; dist/test/install only when it is the root asked for) and node's test-runner arguments (concurrency 2 unless DOCKET_TEST_CONCURRENCY says otherwise).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The installed-package tests: slow (npm pack + install), run by `npm run test:install` only. */
export const INSTALL_ROOT = "dist/test/install";

export function testFiles(filters, root = "dist/test") {
  const files = [];
  (function walk(dir) {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (p !== INSTALL_ROOT || root === INSTALL_ROOT) walk(p);
      } else if (name.endsWith(".test.js") && (filters.length === 0 || filters.some((f) => p.includes(f))))
        files.push(p);
    }
  })(root);
  return files;
}

/**
 * Node 20 applies --test-timeout to each test file's process as a whole, not only to each test: it is a hang catcher
 * sized for the slowest file (six real pi parents, about 30 s idle) on a loaded 2-core machine, never a speed limit.
 * Every wait inside a test has its own deadline and message.
 */
const FILE_TIMEOUT_MS = 900_000;

/** An install test packs, installs (npm ci of a tarball) and runs the package, twice over on a slow registry. */
const INSTALL_TIMEOUT_MS = 1_800_000;

export function runnerArgs(files, extra = [], { install = false } = {}) {
  const concurrency = process.env.DOCKET_TEST_CONCURRENCY ?? "2";
  const timeout = install ? INSTALL_TIMEOUT_MS : FILE_TIMEOUT_MS;
  return ["--test", `--test-concurrency=${concurrency}`, `--test-timeout=${timeout}`, ...extra, ...files];
}
