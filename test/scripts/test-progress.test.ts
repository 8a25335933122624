// `npm test`'s runner (scripts/run-tests.mjs) says how far it is while it runs: files done out of the total and each
// failure the moment it happens, on stderr, while node's own closing summary stays on stdout for CI to read.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../support/temp.js";

const RUN_TESTS = resolve(import.meta.dirname, "../../../scripts/run-tests.mjs");

test("the runner prints files done / total and a failure while another file still runs, and node's summary stays", async (t) => {
  const dir = tempDir(t);
  const tests = join(dir, "dist", "test");
  mkdirSync(tests, { recursive: true });
  const release = join(dir, "release");
  const body = (code: string) =>
    `import { test } from "node:test";\nimport assert from "node:assert/strict";\n${code}\n`;
  writeFileSync(join(tests, "a.test.js"), body(`test("a passes", () => {});`));
  writeFileSync(
    join(tests, "b.test.js"),
    body(`test("b breaks", () => assert.equal(1, 2, "B-MARKER one is not two"));\ntest("b passes", () => {});`),
  );
  // c finishes only once the runner has said b failed: a report printed at the end would never let it.
  writeFileSync(
    join(tests, "c.test.js"),
    body(`import { existsSync } from "node:fs";
test("c waits until b's failure was printed", async () => {
  const until = Date.now() + 120_000;
  while (!existsSync(${JSON.stringify(release)})) {
    if (Date.now() > until) throw new Error("the failure of b was never printed while c ran");
    await new Promise((r) => setTimeout(r, 50));
  }
});`),
  );
  // Run as `npm test` runs it: not as a test inside this one (node marks its own test processes with NODE_TEST_CONTEXT).
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawn(process.execPath, [RUN_TESTS], {
    cwd: dir,
    env: { ...env, DOCKET_TEST_CONCURRENCY: "3" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    if (/✖ FAIL dist\/test\/b\.test\.js › b breaks: B-MARKER one is not two/.test(stderr) && !existsSync(release))
      writeFileSync(release, "");
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  assert.equal(code, 1, `stdout: ${stdout}\nstderr: ${stderr}`);
  assert.ok(existsSync(release), `the failure was printed while c still ran:\n${stderr}`);
  for (const file of ["a", "b", "c"])
    assert.match(
      stderr,
      new RegExp(`^\\[\\d/3 files[^\\]]*\\] (✔|✖ 1 failed) dist/test/${file}\\.test\\.js \\(\\d tests?\\)$`, "m"),
    );
  assert.match(stderr, /^\[3\/3 files · 1 failure so far\] /m, "the count reaches the total");
  assert.match(stderr, /^progress: 3 of 3 files done, 1 with failures, 1 failing test$/m);
  assert.match(stdout, /^(?:ℹ|#) tests 4$/m, "node's own summary, as CI reads it");
  assert.match(stdout, /^(?:ℹ|#) fail 1$/m);
  assert.doesNotMatch(stdout, /files done|✖ FAIL/, "progress stays off stdout");
});
