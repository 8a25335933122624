// `docket demo` runs in CI as a newcomer would run it: the whole loop with real pi workers and the scripted model,
// the plan's files promoted into the scratch repository, the ledger printed, nothing left running, its smoke test
// passing before and after promotion, and every closing hint running as written with `docket` on the PATH.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { AS_CONFIGURED, DOCKET_BIN, cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { git } from "../../support/git.js";
import { tmuxServer } from "../../support/tmux.js";
import { tempDir } from "../../support/temp.js";

test("docket demo plans, approves, implements, reviews with coverage, promotes and prints the ledger", {
  timeout: 180_000,
}, (t) => {
  const dir = tempDir(t);
  const home = tempDir(t);
  // The demo runs as a newcomer's would: the sandbox as its default says (auto: contained where bubblewrap works, as here).
  const r = docket(
    { env: cliEnv({ HOME: home, TMPDIR: dir, ...AS_CONFIGURED }), cwd: dir },
    "demo",
    "--dir",
    dir,
    "--json",
  );
  assert.equal(r.code, 0, r.stderr);
  const result = r.json as {
    repo: string;
    home: string;
    architect: string;
    implementer: string;
    promotedFiles: string[];
    decisions: number;
    next: string[];
  };
  assert.equal(result.architect, "w1");
  assert.equal(result.implementer, "w2");
  assert.deepEqual(result.promotedFiles, ["README.md", "greet.js", "test.js"]);
  assert.equal(result.decisions, 4);
  assert.match(readFileSync(join(result.repo, "greet.js"), "utf8"), /Hello, \$\{name \?\? "world"\}/);
  // The narration went to stderr (stdout holds only the result), step by step.
  for (const step of [
    "architect",
    "approved worker-deliverable:w1:1",
    "plan gate discharged",
    "3/3 planned files touched",
    "t1 done · t2 done",
    "promote",
  ]) {
    assert.ok(r.stderr.includes(step), `narration mentions ${step}`);
  }
  assert.ok(r.stderr.includes("Contained: yes (bubblewrap"), "the demo's workers are contained by default");
  const workers = jsonOf(
    docket({ env: cliEnv({ DOCKET_HOME: result.home, HOME: home }), cwd: result.repo }, "ls", "--all", "--json"),
  );
  assert.deepEqual(
    workers.workers.map((w: { worker: string; contained: boolean }) => `${w.worker}:${w.contained}`),
    ["w1:true", "w2:true"],
  );
  const items = docket(
    { env: cliEnv({ DOCKET_HOME: result.home, HOME: home }), cwd: result.repo },
    "item",
    "ls",
    "--all",
    "--json",
  );
  assert.deepEqual(
    jsonOf(items).items.map((i: { id: string; state: string }) => `${i.id}:${i.state}`),
    ["t1:done", "t2:done"],
  );
  const procs = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  assert.ok(!procs.includes(result.home), "no demo process is left running");

  // The card's evidence says `node test.js → ok`: it is true of the promoted files and of the files before.
  assert.equal(execFileSync(process.execPath, ["test.js"], { cwd: result.repo, encoding: "utf8" }), "ok\n");
  assert.equal(git(result.repo, "stash", "list"), "");
  git(result.repo, "stash", "-q");
  assert.equal(
    execFileSync(process.execPath, ["test.js"], { cwd: result.repo, encoding: "utf8" }),
    "ok\n",
    "the original smoke test runs too",
  );
  git(result.repo, "stash", "pop", "-q");

  // Each closing hint, as written, in a shell whose PATH has `docket` (as `npm link` leaves it).
  const bin = join(dir, "bin");
  mkdirSync(bin);
  symlinkSync(DOCKET_BIN, join(bin, "docket"));
  const { socket } = tmuxServer(t);
  const shellEnv = cliEnv({ HOME: home, TMPDIR: dir, DOCKET_TMUX_SOCKET: socket, PATH: `${bin}:${process.env.PATH}` });
  assert.ok(result.next.length >= 4);
  for (const line of result.next) {
    const run = spawnSync("bash", ["-c", line], { cwd: home, env: shellEnv, encoding: "utf8", timeout: 60_000 });
    assert.equal(run.status, 0, `${line}\n${run.stdout}\n${run.stderr}`);
  }
});
