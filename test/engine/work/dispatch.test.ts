// Dispatch in a real ledger: one binding and obligation per item, all or nothing, idempotent under the same key.

import { test } from "node:test";
import assert from "node:assert/strict";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { report } from "../../../src/engine/protocol/report.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { addWorker, dumpTables, invariantViolations, workLedger } from "../../support/work-ledger.js";

test("dispatch makes one dispatch, a binding and an obligation per item, and one work envelope", (t) => {
  const { ctx, clock } = workLedger(t);
  const { worker } = addWorker(ctx);
  addItem(ctx, { kind: "todo", text: "write the parser" });
  addItem(ctx, { kind: "request", text: "ship a beta" });
  const r = dispatchItems(ctx, { worker, items: ["t1", "r1"] });
  assert.deepEqual(
    { ...r, envelope: undefined },
    {
      dispatch: "dp1",
      bindings: [
        { item: "t1", binding: "b1", acceptedRevision: 1 },
        { item: "r1", binding: "b2", acceptedRevision: 1 },
      ],
      envelope: undefined,
    },
  );
  const due = new Date(clock.nowMs() + 60 * 60_000).toISOString();
  assert.deepEqual(
    ctx.db.prepare("SELECT id, binding, item, worker, state, due_at FROM obligations ORDER BY rowid").all(),
    [
      { id: "o1", binding: "b1", item: "t1", worker: "w1", state: "owed", due_at: due },
      { id: "o2", binding: "b2", item: "r1", worker: "w1", state: "owed", due_at: due },
    ],
  );
  const messages = ctx.db.prepare("SELECT worker, kind, dispatch, delivery, body FROM messages").all() as {
    body: string;
  }[];
  assert.equal(messages.length, 1);
  assert.deepEqual(
    { ...messages[0], body: undefined },
    { worker: "w1", kind: "work", dispatch: "dp1", delivery: "queued", body: undefined },
  );
  assert.match(messages[0]!.body, /t1 \(todo, revision 1\): write the parser/);
  assert.match(messages[0]!.body, /r1 \(request, revision 1\): ship a beta/);
  assert.equal(r.envelope, messages[0]!.body, "the result carries the envelope's text (spawn writes it into task.md)");
  assert.deepEqual(invariantViolations(ctx.db), []);
});

test("the obligation's due time follows the configured obligationDueMinutes", async (t) => {
  const { ctx, clock, home } = workLedger(t);
  const { writeFileSync } = await import("node:fs");
  writeFileSync(`${home}/config.json`, JSON.stringify({ obligationDueMinutes: 5 }));
  const { worker } = addWorker(ctx);
  addItem(ctx, { kind: "todo", text: "x" });
  dispatchItems(ctx, { worker, items: ["t1"] });
  assert.equal(
    (ctx.db.prepare("SELECT due_at FROM obligations").get() as { due_at: string }).due_at,
    new Date(clock.nowMs() + 5 * 60_000).toISOString(),
  );
});

test("an item already actively bound is refused and nothing of the dispatch is created", (t) => {
  const { ctx } = workLedger(t);
  const a = addWorker(ctx, "a");
  const b = addWorker(ctx, "b");
  addItem(ctx, { kind: "todo", text: "one" });
  addItem(ctx, { kind: "todo", text: "two" });
  dispatchItems(ctx, { worker: a.worker, items: ["t1"] });
  const before = dumpTables(ctx.db);
  assert.throws(() => dispatchItems(ctx, { worker: b.worker, items: ["t2", "t1"] }), {
    code: "item-already-bound",
    message: "t1 is already bound to w1 (binding b1); nothing was dispatched",
  });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("only open items can be dispatched, to a worker that exists and has not exited", (t) => {
  const { ctx } = workLedger(t);
  const who = addWorker(ctx);
  addItem(ctx, { kind: "todo", text: "one" });
  dispatchItems(ctx, { worker: who.worker, items: ["t1"] });
  report(ctx, who, { item: "t1", outcome: "done", body: "ok" });
  addItem(ctx, { kind: "todo", text: "two" });
  const before = dumpTables(ctx.db);
  assert.throws(() => dispatchItems(ctx, { worker: who.worker, items: ["t2", "t1"] }), {
    code: "item-not-open",
    message: "t1 is done; only open items can be dispatched",
  });
  assert.throws(() => dispatchItems(ctx, { worker: who.worker, items: ["t7"] }), {
    code: "item-not-found",
    message: "no item t7",
  });
  assert.throws(() => dispatchItems(ctx, { worker: "w9", items: ["t2"] }), {
    code: "worker-not-found",
    message: "no worker w9",
  });
  ctx.commands.run("test.exit", {}, (tx) => updateWorker(tx, who.worker, { exited: true }));
  const afterExit = dumpTables(ctx.db);
  assert.throws(() => dispatchItems(ctx, { worker: who.worker, items: ["t2"] }), {
    code: "worker-exited",
    message: "w1 has exited; respawn it or dispatch to another worker",
  });
  assert.deepEqual(dumpTables(ctx.db), afterExit);
  assert.notDeepEqual(afterExit, before); // only the test's own exit changed something
});

test("malformed dispatch input is refused before the store is read", (t) => {
  const { ctx } = workLedger(t);
  const before = dumpTables(ctx.db);
  assert.throws(() => dispatchItems(ctx, { worker: "bob", items: ["t1"] }), { code: "bad-worker-id" });
  assert.throws(() => dispatchItems(ctx, { worker: "w1", items: [] }), { code: "no-items" });
  assert.throws(() => dispatchItems(ctx, { worker: "w1", items: ["x1"] }), { code: "bad-item-id" });
  assert.throws(() => dispatchItems(ctx, { worker: "w1", items: ["t1", "t1"] }), {
    code: "duplicate-item",
    message: "t1 is named twice; name each item once",
  });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("a dispatch retried with the same key returns the first dispatch", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  addItem(ctx, { kind: "todo", text: "one" });
  const first = dispatchItems(ctx, { worker, items: ["t1"], key: "d-1" });
  assert.deepEqual(dispatchItems(ctx, { worker, items: ["t1"], key: "d-1" }), first);
  assert.equal((ctx.db.prepare("SELECT COUNT(*) AS n FROM dispatches").get() as { n: number }).n, 1);
});
