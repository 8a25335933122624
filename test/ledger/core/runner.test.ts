// The command runner: one BEGIN IMMEDIATE per command, rollback on throw, idempotency keys, effects after commit.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createCommandRunner, hashRequest } from "../../../src/ledger/core/runner.js";
import { refusal } from "../../../src/domain/errors.js";
import { ledgerAt } from "../../support/ledger.js";
import { tempDir } from "../../support/temp.js";

function runnerAt(t: { after(fn: () => void): void }, effects: Record<string, (e: { payload: unknown }) => void> = {}) {
  const db = ledgerAt(tempDir(t));
  t.after(() => db.close());
  let tick = 0;
  const runner = createCommandRunner(db, { clock: () => `2026-01-01T00:00:0${tick++ % 10}.000Z`, effects });
  return { db, runner };
}

const count = (db: ReturnType<typeof ledgerAt>, table: string) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

test("a command runs inside BEGIN IMMEDIATE and commits its writes", (t) => {
  const { db, runner } = runnerAt(t);
  const out = runner.run("demo", {}, (tx) => {
    assert.equal(tx.db.inTransaction, true);
    tx.db.prepare("INSERT INTO counters (name, value) VALUES ('x', 7)").run();
    return "ok";
  });
  assert.deepEqual(out, { result: "ok", replayed: false });
  assert.equal(db.inTransaction, false);
  assert.equal(count(db, "counters"), 1);
});

test("a throwing command rolls back every write, its counters and its outbox entries", (t) => {
  const { db, runner } = runnerAt(t);
  assert.throws(
    () =>
      runner.run(
        "demo",
        {},
        (tx) => {
          tx.next("thing");
          tx.emit("nobody.handles", { a: 1 });
          tx.db.prepare("INSERT INTO counters (name, value) VALUES ('x', 7)").run();
          throw new Error("boom");
        },
        { key: "k" },
      ),
    /boom/,
  );
  assert.equal(count(db, "counters"), 0);
  assert.equal(count(db, "outbox"), 0);
  assert.equal(count(db, "idempotency"), 0);
});

test("counters hand out increasing numbers per name", (t) => {
  const { runner } = runnerAt(t);
  const got = runner.run("demo", {}, (tx) => [tx.next("a"), tx.next("a"), tx.next("b"), tx.next("a")]).result;
  assert.deepEqual(got, [1, 2, 1, 3]);
  assert.equal(runner.run("demo", {}, (tx) => tx.next("a")).result, 4);
});

test("the same key and the same request return the stored result without running again", (t) => {
  const { runner } = runnerAt(t);
  let runs = 0;
  const fn = () => ({ n: ++runs });
  assert.deepEqual(runner.run("demo", { b: 1, a: 2 }, fn, { key: "k1" }), { result: { n: 1 }, replayed: false });
  // key order in the request does not matter: the hash is over a stable form
  assert.deepEqual(runner.run("demo", { a: 2, b: 1 }, fn, { key: "k1" }), { result: { n: 1 }, replayed: true });
  assert.equal(runs, 1);
  assert.equal(hashRequest("demo", { a: 2, b: 1 }), hashRequest("demo", { b: 1, a: 2 }));
});

test("the same key with another request or another command is refused as an idempotency conflict", (t) => {
  const { db, runner } = runnerAt(t);
  runner.run("demo", { a: 1 }, () => 1, { key: "k1" });
  const before = db.prepare("SELECT * FROM idempotency").all();
  assert.throws(() => runner.run("demo", { a: 2 }, () => 2, { key: "k1" }), {
    code: "idempotency-conflict",
    message: 'idempotency key "k1" was already used for a different demo request',
  });
  assert.throws(() => runner.run("other", { a: 1 }, () => 2, { key: "k1" }), { code: "idempotency-conflict" });
  assert.deepEqual(db.prepare("SELECT * FROM idempotency").all(), before);
});

test("without a key nothing is remembered and the command runs every time", (t) => {
  const { db, runner } = runnerAt(t);
  let runs = 0;
  runner.run("demo", {}, () => ++runs);
  runner.run("demo", {}, () => ++runs);
  assert.equal(runs, 2);
  assert.equal(count(db, "idempotency"), 0);
});

test("outbox effects run after commit, are marked done, and unhandled kinds stay queued", (t) => {
  const seen: unknown[] = [];
  const { db, runner } = runnerAt(t, {
    "demo.effect": (e) => {
      // performed after commit: the write is visible and no transaction is open
      assert.equal(db.inTransaction, false);
      seen.push(e.payload);
    },
  });
  runner.run("demo", {}, (tx) => {
    tx.emit("demo.effect", { n: 1 });
    tx.emit("someone.else", { n: 2 });
    assert.deepEqual(seen, []);
  });
  assert.deepEqual(seen, [{ n: 1 }]);
  assert.deepEqual(db.prepare("SELECT kind, done_at IS NOT NULL AS done FROM outbox ORDER BY id").all(), [
    { kind: "demo.effect", done: 1 },
    { kind: "someone.else", done: 0 },
  ]);
  assert.equal(runner.drainOutbox(), 0);
});

test("a batch commits all its steps or none: one refused step rolls the others back and each step says what it did", (t) => {
  const { db, runner } = runnerAt(t);
  const insert = (name: string) => (tx: { db: typeof db }) =>
    tx.db.prepare("INSERT INTO counters (name, value) VALUES (?, 1)").run(name).changes;
  const refused = runner.runAll<number>([
    { command: "a", request: {}, fn: insert("a"), key: "ka" },
    {
      command: "b",
      request: {},
      fn: () => {
        throw refusal("no", "step b says no");
      },
    },
    { command: "c", request: {}, fn: insert("c"), key: "kc" },
  ]);
  assert.equal(refused.committed, false);
  assert.deepEqual(
    refused.outcomes.map((o) => (o.ok ? "ok" : o.error.code)),
    ["ok", "no", "ok"],
    "every step was tried, so each refusal can be named",
  );
  assert.equal(count(db, "counters"), 0);
  assert.equal(count(db, "idempotency"), 0, "no key of a rolled-back batch is remembered");
  const dry = runner.runAll<number>([{ command: "a", request: {}, fn: insert("a"), key: "ka" }], { dryRun: true });
  assert.deepEqual({ committed: dry.committed, ok: dry.outcomes[0]!.ok }, { committed: false, ok: true });
  assert.equal(count(db, "counters"), 0, "a dry run writes nothing");
  const real = runner.runAll<number>([
    { command: "a", request: {}, fn: insert("a"), key: "ka" },
    { command: "c", request: {}, fn: insert("c"), key: "kc" },
  ]);
  assert.equal(real.committed, true);
  assert.equal(count(db, "counters"), 2);
  const again = runner.runAll<number>([{ command: "a", request: {}, fn: insert("a"), key: "ka" }]);
  assert.deepEqual(again.outcomes[0], { ok: true, result: 1, replayed: true });
  assert.throws(
    () =>
      runner.runAll([
        {
          command: "a",
          request: {},
          fn: () => {
            throw new Error("a bug");
          },
        },
      ]),
    /a bug/,
    "a bug is not a refusal: it throws",
  );
});

test("an effect that fails never fails the command that ran it: it stays queued and a later command performs it", (t) => {
  let broken = true;
  const seen: unknown[] = [];
  const { db, runner } = runnerAt(t, {
    "demo.effect": (e) => {
      if (broken && (e.payload as { n: number }).n === 1) throw new Error("ENOENT: the neighbour's directory is gone");
      seen.push(e.payload);
    },
  });
  const out = runner.run("demo", {}, (tx) => {
    tx.emit("demo.effect", { n: 1 });
    tx.emit("demo.effect", { n: 2 });
    return "committed";
  });
  assert.deepEqual(out, { result: "committed", replayed: false });
  assert.deepEqual(seen, [{ n: 2 }], "the other effect of the same command still ran");
  assert.deepEqual(db.prepare("SELECT json_extract(payload, '$.n') AS n FROM outbox WHERE done_at IS NULL").all(), [
    { n: 1 },
  ]);
  broken = false;
  assert.equal(runner.drainOutbox(), 1);
  assert.deepEqual(seen, [{ n: 2 }, { n: 1 }]);
});

test("a command performs its own effects and those left behind over 10 s ago, not a neighbour's fresh ones", (t) => {
  const db = ledgerAt(tempDir(t));
  t.after(() => db.close());
  let now = Date.parse("2026-01-01T00:00:00.000Z");
  const clock = () => new Date(now).toISOString();
  const seen: number[] = [];
  const effects = { "demo.effect": (e: { payload: unknown }) => void seen.push((e.payload as { n: number }).n) };
  const neighbour = createCommandRunner(db, { clock }); // queues effects it does not perform (another process, or one that died)
  const me = createCommandRunner(db, { clock, effects });
  neighbour.run("theirs", {}, (tx) => tx.emit("demo.effect", { n: 1 }));
  me.run("mine", {}, (tx) => tx.emit("demo.effect", { n: 2 }));
  assert.deepEqual(seen, [2], "a neighbour's fresh effect is its own to perform");
  now += 10_001;
  me.run("mine", {}, (tx) => tx.emit("demo.effect", { n: 3 }));
  assert.deepEqual(seen, [2, 3, 1], "left behind for over 10 s, it is performed by whoever commits next");
  assert.equal((db.prepare("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").get() as { n: number }).n, 0);
});

test("repeated effects with the same payload in one drain are performed once and all marked done", (t) => {
  const seen: unknown[] = [];
  const { db, runner } = runnerAt(t, { "demo.effect": (e) => void seen.push(e.payload) });
  runner.run("demo", {}, (tx) => {
    tx.emit("demo.effect", { worker: "w1" });
    tx.emit("demo.effect", { worker: "w1" });
    tx.emit("demo.effect", { worker: "w2" });
  });
  assert.deepEqual(seen, [{ worker: "w1" }, { worker: "w2" }]);
  assert.equal((db.prepare("SELECT count(*) AS n FROM outbox WHERE done_at IS NULL").get() as { n: number }).n, 0);
});

test("afterCommit decides when a command's effects run (the door: after its reply); unperformed ones stay queued", (t) => {
  const db = ledgerAt(tempDir(t));
  t.after(() => db.close());
  const seen: unknown[] = [];
  const later: (() => void)[] = [];
  const runner = createCommandRunner(db, {
    clock: () => "2026-01-01T00:00:00.000Z",
    effects: { "demo.effect": (e) => void seen.push(e.payload) },
    afterCommit: (perform) => void later.push(perform),
  });
  runner.run("demo", {}, (tx) => {
    tx.emit("demo.effect", { n: 1 });
  });
  runner.run("quiet", {}, () => "no effects");
  assert.equal(later.length, 1, "a command that emitted nothing schedules nothing");
  assert.deepEqual(seen, [], "committed, its effect not yet performed");
  assert.equal(count(db, "outbox"), 1);
  later.shift()!();
  assert.deepEqual(seen, [{ n: 1 }]);
  runner.runAll([{ command: "batch", request: {}, fn: (tx) => void tx.emit("demo.effect", { n: 2 }) }]);
  assert.deepEqual(seen, [{ n: 1 }], "a batch's effects wait too");
  // A process that stops before its scheduled effects run leaves them in the outbox: the next drain performs them.
  later.length = 0;
  assert.equal(runner.drainOutbox(), 1);
  assert.deepEqual(seen, [{ n: 1 }, { n: 2 }]);
});
