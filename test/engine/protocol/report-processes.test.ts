// Real processes reporting through the engine at once, or SIGKILLed mid-loop, never break a ledger invariant.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { addWorker, invariantViolations, workLedger } from "../../support/work-ledger.js";
import { teardown, type Hooks } from "../../support/teardown.js";
import { waitFor } from "../../support/wait.js";

const CHILD = fileURLToPath(new URL("../../support/report-child.js", import.meta.url));

interface Child {
  done: Promise<{ code: number | null; signal: string | null; out: string; err: string }>;
  kill(): void;
  /** Throws (with the child's stderr) once it has exited: a wait on its progress fails at once, not at the deadline. */
  running(): true;
}

function runChild(t: Hooks, home: string, args: string[]): Child {
  const child = spawn(process.execPath, [CHILD, ...args], {
    env: { ...process.env, DOCKET_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  teardown(t).child(child);
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const done = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((res) =>
    child.on("close", (code, signal) => res({ code, signal, out, err })),
  );
  const running = (): true => {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the child exited (${child.exitCode ?? child.signalCode}) early; stderr: ${err}`);
    return true;
  };
  return { done, kill: () => child.kill("SIGKILL"), running };
}

function seed(t: { after(fn: () => void): void }, workers: number, perWorker: number) {
  const l = workLedger(t);
  const ws = Array.from({ length: workers }, (_, i) => {
    const who = addWorker(l.ctx, `token-${i}`);
    const items = Array.from(
      { length: perWorker },
      (_, j) => addItem(l.ctx, { kind: j % 2 ? "request" : "todo", text: `w${i} item ${j}` }).id,
    );
    // several dispatches per worker, so "the dispatch resolves with its last binding" is exercised mid-way
    for (let k = 0; k < items.length; k += 5)
      dispatchItems(l.ctx, { worker: who.worker, items: items.slice(k, k + 5) });
    return { ...who, items };
  });
  return { ...l, ws };
}

const count = (db: { prepare(s: string): { get(): unknown } }, sql: string) =>
  (db.prepare(sql).get() as { n: number }).n;

test("a process SIGKILLed while reporting in a loop leaves every invariant true, and a retry finishes the work", async (t) => {
  const { ctx, home, ws } = seed(t, 1, 300);
  const w = ws[0]!;
  const args = [w.worker, String(w.generation), w.runToken, ...w.items];
  for (let round = 0; round < 3; round++) {
    const start = count(ctx.db, "SELECT COUNT(*) AS n FROM reports");
    const child = runChild(t, home, args);
    // kill it once it has committed a few more reports: mid-loop, at an arbitrary point inside or between commands
    const target = start + 20 + round * 7;
    await waitFor(
      `${target} reports`,
      () => child.running() && count(ctx.db, "SELECT COUNT(*) AS n FROM reports") >= target,
      60_000,
      2,
    );
    child.kill();
    const end = await child.done;
    assert.equal(end.signal, "SIGKILL", `child finished before it was killed: ${end.err}`);
    assert.deepEqual(invariantViolations(ctx.db), [], `after kill ${round + 1}`);
  }
  // the same keys make the retry safe: finished entries return their first result, the rest commit now
  const last = await runChild(t, home, args).done;
  assert.equal(last.code, 0, last.err);
  const { results } = JSON.parse(last.out) as { results: { status: string }[] };
  assert.equal(results.length, 300);
  assert.ok(
    results.every((r) => r.status === "resolved"),
    JSON.stringify(results.filter((r) => r.status !== "resolved").slice(0, 3)),
  );
  assert.deepEqual(invariantViolations(ctx.db), []);
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM bindings WHERE state = 'active'"), 0);
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM obligations WHERE state = 'owed'"), 0);
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM dispatches WHERE state = 'active'"), 0);
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM reports WHERE outcome != 'blocked'"), 300);
});

test("four processes reporting at once on different items all commit", async (t) => {
  const { ctx, home, ws } = seed(t, 4, 60);
  const children = ws.map((w) => runChild(t, home, [w.worker, String(w.generation), w.runToken, ...w.items]));
  const ends = await Promise.all(children.map((c) => c.done));
  for (const end of ends) {
    assert.equal(end.code, 0, end.err);
    const { results } = JSON.parse(end.out) as { results: { status: string }[] };
    assert.deepEqual(new Set(results.map((r) => r.status)), new Set(["resolved"]));
  }
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM reports WHERE outcome != 'blocked'"), 240);
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM reports WHERE outcome = 'blocked'"), 60);
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM bindings WHERE state = 'active'"), 0);
  assert.equal(count(ctx.db, "SELECT COUNT(*) AS n FROM notifications"), 300);
  assert.deepEqual(invariantViolations(ctx.db), []);
});
