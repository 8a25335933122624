// Items in a real ledger: every change is a new revision; editing a bound item moves or keeps its binding as asked.

import { test } from "node:test";
import assert from "node:assert/strict";
import { addItem, editItem, replyItem, showItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { report } from "../../../src/engine/protocol/report.js";
import { addWorker, dumpTables, workLedger } from "../../support/work-ledger.js";

test("every change increments the revision; an unbound item queues no reply review", (t) => {
  const { ctx } = workLedger(t);
  addItem(ctx, { kind: "todo", text: "draft" });
  assert.deepEqual(editItem(ctx, { id: "t1", text: "final" }), { id: "t1", revision: 2 });
  assert.deepEqual(replyItem(ctx, { id: "t1", text: "why?" }), { id: "t1", revision: 3, reply: "t1.1" });
  assert.deepEqual(editItem(ctx, { id: "t1", text: "imported", external: true }), { id: "t1", revision: 4 });
  const shown = showItem(ctx, "t1");
  assert.deepEqual(
    { ...shown },
    {
      id: "t1",
      kind: "todo",
      text: "imported",
      revision: 4,
      state: "open",
      replies: [{ id: "t1.1", text: "why?", state: "unanswered" }],
      bindings: [],
      reports: [],
    },
  );
  assert.equal((ctx.db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n, 0);
});

test("a human edit of a bound item moves the binding and queues a reply review in the same command", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  addItem(ctx, { kind: "todo", text: "draft" });
  dispatchItems(ctx, { worker, items: ["t1"] });
  assert.deepEqual(editItem(ctx, { id: "t1", text: "final wording" }), {
    id: "t1",
    revision: 2,
    binding: "b1",
    message: "m2",
  });
  const review = ctx.db
    .prepare("SELECT worker, kind, binding, delivery, body FROM messages WHERE id = 'm2'")
    .get() as Record<string, string>;
  assert.equal(review.kind, "reply_review");
  assert.equal(review.worker, "w1");
  assert.equal(review.binding, "b1");
  assert.match(review.body!, /New text: final wording/);
  assert.deepEqual(replyItem(ctx, { id: "t1", text: "also mobile" }), {
    id: "t1",
    revision: 3,
    reply: "t1.1",
    binding: "b1",
    message: "m3",
  });
  assert.match(
    (ctx.db.prepare("SELECT body FROM messages WHERE id = 'm3'").get() as { body: string }).body,
    /Reply: also mobile/,
  );
  assert.equal(showItem(ctx, "t1").bindings[0]!.acceptedRevision, 3);
});

test("an --external edit of a bound item leaves the binding and sends nothing", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  addItem(ctx, { kind: "todo", text: "draft" });
  dispatchItems(ctx, { worker, items: ["t1"] });
  assert.deepEqual(editItem(ctx, { id: "t1", text: "import", external: true }), { id: "t1", revision: 2 });
  assert.equal(showItem(ctx, "t1").bindings[0]!.acceptedRevision, 1);
  assert.equal(
    (ctx.db.prepare("SELECT COUNT(*) AS n FROM messages WHERE kind = 'reply_review'").get() as { n: number }).n,
    0,
  );
});

test("a finished item cannot be edited or replied to, and bad input changes nothing", (t) => {
  const { ctx } = workLedger(t);
  const who = addWorker(ctx);
  addItem(ctx, { kind: "request", text: "ship" });
  dispatchItems(ctx, { worker: who.worker, items: ["r1"] });
  report(ctx, who, { item: "r1", outcome: "done", body: "shipped" });
  const before = dumpTables(ctx.db);
  assert.throws(() => editItem(ctx, { id: "r1", text: "more" }), {
    code: "item-not-open",
    message: "r1 is closed; only open items can be changed",
  });
  assert.throws(() => replyItem(ctx, { id: "r1", text: "more" }), { code: "item-not-open" });
  assert.throws(() => editItem(ctx, { id: "r1", text: "  " }), {
    code: "empty-text",
    message: "text must not be empty",
  });
  assert.throws(() => editItem(ctx, { id: "x", text: "y" }), { code: "bad-item-id" });
  assert.throws(() => replyItem(ctx, { id: "t5", text: "y" }), { code: "item-not-found", message: "no item t5" });
  assert.throws(() => showItem(ctx, "r2"), { code: "item-not-found" });
  assert.deepEqual(dumpTables(ctx.db), before);
  assert.deepEqual(showItem(ctx, "r1").reports, [{ id: "rp1", outcome: "done", body: "shipped" }]);
});
