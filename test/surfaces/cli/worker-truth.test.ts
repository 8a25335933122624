// A worker's state comes from evidence, through the real CLI, tmux and the door: a pane killed under its
// wrapper is failed with why by the door's watcher; silence is `stuck`; a refused call shows; --wait talks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DOCKET_BIN, assertExit, jsonOf } from "../../support/docket-cli.js";
import { fixture, type Fixture } from "../../support/cli-workers.js";
import { waitFor as waitForAt } from "../../support/wait.js";
import { browser } from "../../support/browser.js";
import { signedIn, webServer } from "../../support/web.js";
import type { ReviewGround } from "../../support/review-fixture.js";

/** Generous: these wait on real processes on a loaded machine (never a measure of time). */
const waitFor = <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 90_000) =>
  waitForAt(what, check, ms);

function ledgerRow(f: Fixture, sql: string): any {
  const db = new Database(join(f.home, "ledger.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).get();
  } finally {
    db.close();
  }
}

function lsRow(f: Fixture, worker: string): any {
  return jsonOf(f.run("ls", "--json")).workers.find((w: { worker: string }) => w.worker === worker);
}

function panePid(f: Fixture, worker: string): number {
  const pane = ledgerRow(f, `SELECT pane_id FROM workers WHERE id = '${worker}'`).pane_id as string;
  return Number(f.server.tmux("display-message", "-p", "-t", pane, "#{pane_pid}").trim());
}

test("a pane killed under its wrapper is failed by the door's watcher with its exit and last lines, shown alike by ls and show", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t);
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "echo about to be killed; sleep 600", "--json", "doomed"));
  const pid = await waitFor("w1's window", () => {
    try {
      return panePid(f, "w1") || undefined;
    } catch {
      return undefined;
    }
  });
  await waitFor("w1 printed its line", () => f.server.tmux("capture-pane", "-p", "-t", "w1").includes("about to be"));
  // The wrapper and its command die at once (kill -9 of the pane's process group): no exit is ever reported.
  process.kill(-pid, "SIGKILL");

  // No Docket command reads meanwhile: the door's watcher records it.
  const row = await waitFor(
    "the door to record w1 failed",
    () => {
      const r = ledgerRow(f, "SELECT state, last_error, exit_code FROM workers WHERE id = 'w1'");
      return r.state === "failed" ? r : undefined;
    },
    60_000,
  );
  assert.match(row.last_error, /died before reporting \(killed by signal 9\)/);
  assert.match(row.last_error, /about to be killed/);
  assert.equal(row.exit_code, 137);

  const listed = lsRow(f, "w1");
  assert.equal(listed.state, "failed");
  assert.equal(listed.reason, row.last_error);
  const shown = jsonOf(f.run("show", "w1", "--json"));
  assert.equal(shown.state, "failed");
  assert.equal(shown.reason, row.last_error);
  const text = assertExit(f.run("ls")).stdout;
  assert.match(text, /failed: its process died before reporting \(killed by signal 9\)/);
  const attention = jsonOf(f.run("attention", "--json"));
  const failures = (attention.notifications ?? attention).filter(
    (n: { kind: string; worker: string }) => n.kind === "failed" && n.worker === "w1",
  );
  assert.equal(failures.length, 1, JSON.stringify(attention));

  // The review page's fleet (a real Chromium) shows the same state and the same reason.
  const web = await webServer(t, { home: f.home, project: f.repo } as ReviewGround);
  const page = await signedIn(await browser(t), web, "/fleet");
  await page.waitForSelector("table.fleet tr[data-worker='w1'] .pill");
  const fleetRow = await page.evaluate(() => {
    const tr = document.querySelector("table.fleet tr[data-worker='w1']");
    return { state: tr?.querySelector(".pill")?.textContent, reason: tr?.querySelector(".reason")?.textContent };
  });
  assert.deepEqual(fleetRow, { state: "failed", reason: listed.reason });
});

test("a worker with no sign of progress for worker.stuckMinutes shows stuck with one attention line, and moves on when it speaks", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t, { worker: { stuckMinutes: 0.05 } });
  // Silent (no output, no call) until the test lets it go, then it speaks through its door.
  const cmd =
    'while [ ! -f go ]; do sleep 0.2; done; printf "late but done\\n" | docket worker done --outcome completed; sleep 600';
  assertExit(f.run("spawn", "--agent", "command", "--cmd", cmd, "--json", "quiet"));
  const stuck = await waitFor("w1 stuck", () => {
    const w = lsRow(f, "w1");
    return w?.state === "stuck" ? w : undefined;
  });
  assert.match(stuck.reason, /no sign of progress .* for 3 s \(worker\.stuckMinutes\)/);
  const lines = (...all: string[]) =>
    jsonOf(f.run("attention", ...all, "--json")).notifications.filter(
      (n: { kind: string; worker: string }) => n.kind === "stuck" && n.worker === "w1",
    );
  assert.equal(lines().length, 1);
  writeFileSync(join(f.home, "fleet", "w1", "workspace", "go"), "");
  const ready = await waitFor("w1 ready once it spoke", () => {
    const w = jsonOf(f.run("show", "w1", "--json"));
    return w.state === "ready" ? w : undefined;
  });
  assert.equal(ready.reason, undefined);
  assert.equal(lines("--all").length, 1, "one stuck line for one silence");
  assert.equal(lines().length, 0, "settled once the worker published");
});

test("a refused `docket worker done` is on the worker's show and in attention, with the refusal, until a call is accepted", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t);
  // An empty body is refused by the engine, through the door; the worker goes on once the test says so.
  const cmd =
    'printf "" | docket worker done --outcome completed; while [ ! -f go ]; do sleep 0.2; done; printf "body\\n" | docket worker done --outcome completed; sleep 600';
  assertExit(f.run("spawn", "--agent", "command", "--cmd", cmd, "--json", "refused"));
  const shown = await waitFor("w1's refusal shown", () => {
    const w = jsonOf(f.run("show", "w1", "--json"));
    return w.findings.some((x: { kind: string }) => x.kind === "refused") ? w : undefined;
  });
  const refusal = shown.findings.find((x: { kind: string }) => x.kind === "refused");
  assert.match(refusal.text, /^its done call was refused: docket_done needs the deliverable/);
  assert.equal(shown.reason, refusal.text);
  assert.equal(lsRow(f, "w1").reason, refusal.text);
  const refused = () =>
    jsonOf(f.run("attention", "--json")).notifications.filter((n: { kind: string }) => n.kind === "refused");
  assert.equal(refused().length, 1);
  assert.match(refused()[0].body, /docket_done needs the deliverable/);
  assert.match(assertExit(f.run("show", "w1")).stdout, /why thinking: its done call was refused/);

  writeFileSync(join(f.home, "fleet", "w1", "workspace", "go"), "");
  const ready = await waitFor("w1 ready", () => {
    const w = jsonOf(f.run("show", "w1", "--json"));
    return w.state === "ready" ? w : undefined;
  });
  assert.deepEqual(ready.findings, []);
  assert.equal(ready.reason, undefined);
});

test("a contained command worker calls `docket worker done` by name and publishes v1", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t, { sandbox: { mode: "required" } });
  const env = { ...f.env, DOCKET_SANDBOX: "" };
  // It stays after done: a worker that exits once it published is `ended`, which would race the wait for `ready`.
  const cmd =
    'command -v docket > where.txt; printf "found docket by name\\n" | docket worker done --outcome completed; sleep 600';
  const spawned = jsonOf(
    await runAsync({ env, cwd: f.repo }, "spawn", "--agent", "command", "--cmd", cmd, "--json", "by name"),
  );
  assert.equal(spawned.worker, "w1");
  const run = (...args: string[]) => runAsync({ env, cwd: f.repo }, ...args);
  const shown = await waitFor("w1 ready", async () => {
    const w = jsonOf(await run("show", "w1", "--json"));
    if (w.state === "failed") throw new Error(`w1 failed: ${w.lastError}`);
    return w.state === "ready" ? w : undefined;
  });
  assert.equal(shown.contained, true);
  assert.equal(shown.deliverable, "worker-deliverable:w1:1");
});

test("spawn --wait prints the worker and its launch at once, each state as it changes, and its outcome", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t);
  const cmd = 'sleep 3; printf "v1\\n" | docket worker done --outcome completed; sleep 600';
  const child = startCli(f, "spawn", "--agent", "command", "--cmd", cmd, "--wait", "talk");
  const started = await waitFor("the started line before any outcome", () =>
    child.out().includes("w1 started") ? child.out() : undefined,
  );
  assert.doesNotMatch(started, /is ready/);
  const done = await child.exited;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const lines = done.stdout.split("\n");
  const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
  assert.ok(at(/^w1 started/) >= 0, done.stdout);
  assert.ok(at(/^w1: thinking$/) > at(/^w1 started/), done.stdout);
  assert.ok(at(/^w1: ready$/) > at(/^w1: thinking$/), done.stdout);
  assert.ok(at(/^w1 is ready: `docket verdict w1`/) > at(/^w1: ready$/), done.stdout);
});

test("Ctrl-C on spawn --wait leaves the worker running and says how to follow it", { timeout: 240_000 }, async (t) => {
  const f = fixture(t);
  const child = startCli(f, "spawn", "--agent", "command", "--cmd", "sleep 600", "--wait", "long");
  await waitFor("w1 thinking on --wait's output", () => child.out().includes("w1: thinking"));
  child.interrupt();
  const done = await child.exited;
  assert.equal(done.code, 1, done.stdout + done.stderr);
  assert.match(done.stdout, /stopped waiting; w1 keeps running/);
  assert.match(done.stdout, /`docket show w1`/);
  assert.match(done.stdout, /`docket peek w1`/);
  const w = lsRow(f, "w1");
  assert.equal(w.state, "thinking");
  assert.equal(w.liveness, "live");
});

interface Child {
  out(): string;
  interrupt(): void;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startCli(f: Fixture, ...args: string[]): Child {
  const child = spawn(process.execPath, [DOCKET_BIN, ...args], {
    cwd: f.repo,
    env: f.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { out: () => stdout, interrupt: () => child.kill("SIGINT"), exited };
}

function runAsync(options: { env: NodeJS.ProcessEnv; cwd: string }, ...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [DOCKET_BIN, ...args], { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
