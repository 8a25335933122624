// `docket demo` runs in CI as a newcomer would run it: the whole loop with real pi workers and the scripted model,
// the plan's files promoted into the scratch repository, the ledger printed, and nothing left running.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";

test("docket demo plans, approves, implements, reviews with coverage, promotes and prints the ledger", { timeout: 180_000 }, (t) => {
  const dir = tempDir(t);
  const home = tempDir(t);
  const r = docket({ env: cliEnv({ HOME: home, TMPDIR: dir }), cwd: dir }, "demo", "--dir", dir, "--json");
  assert.equal(r.code, 0, r.stderr);
  const result = r.json as { repo: string; home: string; architect: string; implementer: string; promotedFiles: string[]; decisions: number };
  assert.equal(result.architect, "w1");
  assert.equal(result.implementer, "w2");
  assert.deepEqual(result.promotedFiles, ["README.md", "greet.js", "test.js"]);
  assert.equal(result.decisions, 4);
  assert.match(readFileSync(join(result.repo, "greet.js"), "utf8"), /Hello, \$\{name \?\? "world"\}/);
  // The narration went to stderr (stdout holds only the result), step by step.
  for (const step of ["architect", "approved worker-deliverable:w1:1", "plan gate discharged", "3/3 planned files touched", "t1 done · t2 done", "promote"]) {
    assert.ok(r.stderr.includes(step), `narration mentions ${step}`);
  }
  const items = docket({ env: cliEnv({ DOCKET_HOME: result.home, HOME: home }), cwd: result.repo }, "item", "ls", "--all", "--json");
  assert.deepEqual(jsonOf(items).items.map((i: { id: string; state: string }) => `${i.id}:${i.state}`), ["t1:done", "t2:done"]);
  const procs = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  assert.ok(!procs.includes(result.home), "no demo process is left running");
});
