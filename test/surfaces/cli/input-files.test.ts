// Every file or standard input Docket reads as input is a regular file or a pipe of at most 16 MiB, refused at once
// otherwise. Each run has a deadline: a command that would read /dev/zero forever fails the test, not the suite.

import { test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, openSync, readdirSync, writeFileSync, truncateSync, existsSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docketWith, type CliRun } from "../../support/docket-cli.js";
import { identityEnv, isolatedWorker } from "../../support/protocol-worker.js";
import { tempDir } from "../../support/temp.js";
import { workLedger, addWorker } from "../../support/work-ledger.js";

const DEADLINE_MS = 20_000;
const CAP = 16 * 1024 * 1024;

function refusedAtOnce(r: CliRun, code: string): void {
  assert.equal(r.signal, null, `the command was still reading when the ${DEADLINE_MS} ms deadline killed it`);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.json?.error?.code, code, r.stdout);
}

function withZero<T>(fn: (fd: number) => T): T {
  const fd = openSync("/dev/zero", "r");
  try {
    return fn(fd);
  } finally {
    closeSync(fd);
  }
}

test("worker report --file /dev/zero is refused at once as a character device, and nothing is recorded", (t) => {
  const { ctx, home } = workLedger(t);
  const w = addWorker(ctx);
  const env = cliEnv({ DOCKET_HOME: home, ...identityEnv(w) });
  const r = docketWith({ env, cwd: home, timeoutMs: DEADLINE_MS }, "worker", "report", "--file", "/dev/zero", "--json");
  refusedAtOnce(r, "input-not-a-file");
  assert.equal(
    r.json.error.message,
    "--file /dev/zero is a character device; give a regular file or a pipe (at most 16 MiB)",
  );
  assert.equal((ctx.db.prepare("SELECT count(*) AS n FROM reports").get() as { n: number }).n, 0);
});

test("every input flag refuses a device, a directory and a file over 16 MiB, and freezes nothing", (t) => {
  const { ctx, home } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const env = cliEnv({ DOCKET_HOME: home, ...identityEnv(w) });
  const big = join(tempDir(t, "docket-input-"), "big.json");
  writeFileSync(big, "");
  truncateSync(big, CAP + 1);
  const run = (...args: string[]) =>
    docketWith({ env, cwd: w.workspace, timeoutMs: DEADLINE_MS, input: "body" }, ...args, "--json");
  for (const [flag, base] of [
    ["--body-file", ["worker", "done", "--outcome", "completed"]],
    ["--items-file", ["worker", "done", "--outcome", "completed"]],
    ["--blocked-file", ["worker", "wait", "--question", "which?"]],
    ["--items-file", ["worker", "todos"]],
    ["--file", ["worker", "report"]],
  ] as const) {
    refusedAtOnce(run(...base, flag, "/dev/zero"), "input-not-a-file");
    refusedAtOnce(run(...base, flag, home), "input-not-a-file");
    const tooBig = run(...base, flag, big);
    refusedAtOnce(tooBig, "input-too-large");
    assert.match(tooBig.json.error.message, new RegExp(`^${flag} .*big\\.json is larger than 16 MiB`));
  }
  const human = (...args: string[]) =>
    docketWith({ env: cliEnv({ DOCKET_HOME: home }), cwd: home, timeoutMs: DEADLINE_MS }, ...args, "--json");
  refusedAtOnce(human("save", "--author", "/dev/zero", "--outcome", "findings"), "input-not-a-file");
  refusedAtOnce(human("save", "--author", big, "--outcome", "findings"), "input-too-large");
  assert.equal(existsSync(join(home, "deliverables")), false, "no stored record was written");
  assert.deepEqual(
    readdirSync(join(ctx.home.workerDir(w.worker))).filter((n) => n === "deliverables"),
    [],
    "no version was frozen",
  );
});

test("standard input that is a device, or longer than 16 MiB, is refused as a body; a pipe within the cap is accepted", (t) => {
  const { ctx, home } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const env = cliEnv({ DOCKET_HOME: home, ...identityEnv(w) });
  const done = (input: string | number) =>
    docketWith(
      { env, cwd: w.workspace, timeoutMs: DEADLINE_MS, input },
      "worker",
      "done",
      "--outcome",
      "completed",
      "--json",
    );
  withZero((fd) => refusedAtOnce(done(fd), "input-not-a-file"));
  withZero((fd) =>
    refusedAtOnce(
      docketWith(
        { env: cliEnv({ DOCKET_HOME: home }), cwd: home, timeoutMs: DEADLINE_MS, input: fd },
        "save",
        "--author",
        "-",
        "--outcome",
        "findings",
        "--json",
      ),
      "input-not-a-file",
    ),
  );
  refusedAtOnce(done("x".repeat(CAP + 1)), "input-too-large");
  const ok = done("exactly this body\n");
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.json.deliverable.version, 1);
});

test("each input flag's help names the 16 MiB cap", (t) => {
  const home = tempDir(t, "docket-input-help-");
  const help = (...args: string[]) =>
    docketWith({ env: cliEnv({ DOCKET_HOME: home }), cwd: home }, ...args, "--help").stdout.replace(/\s+/g, " ");
  assert.match(help("worker", "done"), /--body-file <file> .*at most 16 MiB/);
  assert.match(help("worker", "done"), /--items-file <json> .*at most 16 MiB/);
  assert.match(help("worker", "wait"), /--blocked-file <json> .*at most 16 MiB/);
  assert.match(help("worker", "todos"), /--items-file <json> .*at most 16 MiB/);
  assert.match(help("worker", "report"), /--file <json> .*at most 16 MiB/);
  assert.match(help("save"), /--author <file\|-> .*at most 16 MiB/);
});
