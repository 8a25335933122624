// The command runner: one BEGIN IMMEDIATE per command, rollback on throw, idempotency keys, effects after commit.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createCommandRunner, hashRequest } from "../../src/ledger/runner.js";
import { ledgerAt } from "../support/ledger.js";
import { tempDir } from "../support/temp.js";

function runnerAt(t: { after(fn: () => void): void }, effects: Record<string, (e: { payload: unknown }) => void> = {}) {
  const db = ledgerAt(tempDir(t));
  t.after(() => db.close());
  let tick = 0;
  const runner = createCommandRunner(db, { clock: () => `2026-01-01T00:00:0${tick++ % 10}.000Z`, effects });
  return { db, runner };
}

const count = (db: ReturnType<typeof ledgerAt>, table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

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
      runner.run("demo", {}, (tx) => {
        tx.next("thing");
        tx.emit("nobody.handles", { a: 1 });
        tx.db.prepare("INSERT INTO counters (name, value) VALUES ('x', 7)").run();
        throw new Error("boom");
      }, { key: "k" }),
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
  assert.throws(() => runner.run("demo", { a: 2 }, () => 2, { key: "k1" }), { code: "idempotency-conflict", message: 'idempotency key "k1" was already used for a different demo request' });
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
