// Per-item reports run each outcome's item operation in one command; bad or stale reports change nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { addItem, editItem, replyItem, showItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { report, reportEntries, REVISION_CHANGED } from "../../../src/engine/protocol/report.js";
import { hashRunToken, updateWorker } from "../../../src/ledger/workers/workers.js";
import { PER_ITEM_REQUIRED } from "../../../src/domain/work/report.js";
import { addWorker, dumpTables, invariantViolations, workLedger } from "../../support/work-ledger.js";

function setup(t: { after(fn: () => void): void }, kinds: ("todo" | "request")[] = ["todo"]) {
  const { ctx, clock } = workLedger(t);
  const who = addWorker(ctx);
  const items = kinds.map((kind, i) => addItem(ctx, { kind, text: `item ${i + 1}` }).id);
  const d = dispatchItems(ctx, { worker: who.worker, items });
  return { ctx, clock, who, items, dispatch: d.dispatch };
}

const row = (ctx: { db: { prepare(s: string): { get(...a: unknown[]): unknown } } }, sql: string, ...args: unknown[]) =>
  ctx.db.prepare(sql).get(...args) as Record<string, unknown>;

test("done on a todo runs done_todo and records every effect in one command", (t) => {
  const { ctx, who, items, dispatch } = setup(t);
  const r = report(ctx, who, {
    item: items[0]!,
    outcome: "done",
    body: "fixed; tests pass",
    evidence: [{ kind: "test", text: "npm test: 12 pass" }],
    forHuman: ["restart the api"],
  });
  assert.deepEqual(r, { item: "t1", status: "resolved", reportId: "rp1" });
  assert.equal(row(ctx, "SELECT state, revision FROM items WHERE id = 't1'").state, "done");
  assert.equal(row(ctx, "SELECT state FROM bindings WHERE id = 'b1'").state, "resolved");
  assert.deepEqual(
    { ...row(ctx, "SELECT state, disposition FROM obligations WHERE binding = 'b1'") },
    { state: "resolved", disposition: "rp1" },
  );
  assert.equal(row(ctx, "SELECT state FROM dispatches WHERE id = ?", dispatch).state, "resolved");
  assert.equal(row(ctx, "SELECT delivery FROM messages WHERE kind = 'work'").delivery, "cancelled");
  const n = row(ctx, "SELECT kind, item, report, body, for_human FROM notifications");
  assert.deepEqual(
    { ...n },
    { kind: "outcome", item: "t1", report: "rp1", body: "fixed; tests pass", for_human: '["restart the api"]' },
  );
  assert.deepEqual(JSON.parse(row(ctx, "SELECT evidence FROM reports WHERE id = 'rp1'").evidence as string), [
    { kind: "test", text: "npm test: 12 pass" },
  ]);
  assert.deepEqual(invariantViolations(ctx.db), []);
});

test("each outcome runs its item operation on todos and requests", (t) => {
  const { ctx, who } = setup(t, ["todo", "todo", "todo", "request", "request", "request"]);
  const outcomes = ["done", "released", "abandoned", "done", "released", "abandoned"] as const;
  const ids = ["t1", "t2", "t3", "r1", "r2", "r3"];
  ids.forEach((item, i) =>
    assert.equal(report(ctx, who, { item, outcome: outcomes[i]!, body: `because ${i}` }).status, "resolved"),
  );
  const states = ctx.db.prepare("SELECT id, state, closing_note AS note FROM items ORDER BY rowid").all();
  assert.deepEqual(states, [
    { id: "t1", state: "done", note: null },
    { id: "t2", state: "open", note: null },
    { id: "t3", state: "abandoned", note: null },
    { id: "r1", state: "closed", note: "because 3" },
    { id: "r2", state: "open", note: null },
    { id: "r3", state: "closed", note: "Abandoned: because 5" },
  ]);
  assert.deepEqual(invariantViolations(ctx.db), []);
});

test("a released item can be dispatched again", (t) => {
  const { ctx, who } = setup(t);
  report(ctx, who, { item: "t1", outcome: "released", body: "not mine" });
  const again = dispatchItems(ctx, { worker: who.worker, items: ["t1"] });
  assert.equal(again.bindings[0]!.acceptedRevision, 2);
});

test("blocked writes a report, makes the obligation due now and unparked, notifies, and keeps the binding", (t) => {
  const { ctx, clock, who, dispatch } = setup(t);
  ctx.db.prepare("UPDATE obligations SET parked_until = '2030-01-01T00:00:00.000Z'").run();
  clock.advanceMinutes(5);
  const r = report(ctx, who, {
    item: "t1",
    outcome: "blocked",
    body: "need the staging password\nsecond line",
    forHuman: ["send the password"],
  });
  assert.deepEqual(r, { item: "t1", status: "pending", reportId: "rp1" });
  assert.deepEqual(
    { ...row(ctx, "SELECT state, due_at, parked_until FROM obligations") },
    { state: "owed", due_at: clock.now(), parked_until: null },
  );
  assert.equal(row(ctx, "SELECT state FROM bindings").state, "active");
  assert.equal(row(ctx, "SELECT state FROM dispatches WHERE id = ?", dispatch).state, "active");
  assert.equal(row(ctx, "SELECT state FROM items").state, "open");
  assert.deepEqual(
    { ...row(ctx, "SELECT kind, body, for_human FROM notifications") },
    { kind: "blocked", body: "need the staging password second line", for_human: '["send the password"]' },
  );
  // the same worker sends done later, once the blocker clears
  assert.equal(report(ctx, who, { item: "t1", outcome: "done", body: "unblocked and done" }).status, "resolved");
  assert.deepEqual(invariantViolations(ctx.db), []);
});

test("a bad outcome or an empty body is refused before the store is touched", (t) => {
  const { ctx, who } = setup(t);
  const before = dumpTables(ctx.db);
  for (const entry of [
    { item: "t1", outcome: "partially done", body: "x" },
    { item: "t1", outcome: "done", body: "   " },
    { item: "t1", outcome: "", body: "" },
  ]) {
    assert.throws(() => report(ctx, who, entry), { code: "report-entry-invalid", message: PER_ITEM_REQUIRED });
  }
  // validation needs no store: it refuses even for a worker that does not exist
  assert.throws(
    () => report(ctx, { worker: "w99", generation: 1, runToken: "none" }, { item: "t1", outcome: "mostly", body: "x" }),
    { message: PER_ITEM_REQUIRED },
  );
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("a report from a replaced generation is refused, says the process was replaced, and changes nothing", (t) => {
  const { ctx, who } = setup(t);
  ctx.commands.run("test.respawn", {}, (tx) =>
    updateWorker(tx, who.worker, { generation: 2, runTokenHash: hashRunToken("token-2") }),
  );
  const before = dumpTables(ctx.db);
  assert.throws(() => report(ctx, who, { item: "t1", outcome: "done", body: "stale" }), {
    code: "generation-replaced",
    message: /process was replaced/,
  });
  assert.throws(() => report(ctx, { ...who, runToken: "other" }, { item: "t1", outcome: "done", body: "stale" }), {
    code: "generation-replaced",
  });
  assert.throws(
    () => report(ctx, { ...who, generation: 2, runToken: "other" }, { item: "t1", outcome: "done", body: "forged" }),
    {
      code: "run-token-mismatch",
      message: /run token does not match/,
    },
    "the right generation with a wrong token is an impostor, not a replaced process",
  );
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("a report from an exited worker is refused and changes nothing", (t) => {
  const { ctx, who } = setup(t);
  ctx.commands.run("test.exit", {}, (tx) => updateWorker(tx, who.worker, { exited: true, exitCode: 0 }));
  const before = dumpTables(ctx.db);
  assert.throws(() => report(ctx, who, { item: "t1", outcome: "done", body: "late" }), {
    code: "worker-exited",
    message: /process was replaced/,
  });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("a report on an item without an active binding for this worker at this generation is refused", (t) => {
  const { ctx, who } = setup(t);
  addItem(ctx, { kind: "todo", text: "not dispatched" });
  const other = addWorker(ctx, "token-other");
  const before = dumpTables(ctx.db);
  for (const [w, item] of [
    [who, "t2"],
    [other, "t1"],
  ] as const) {
    assert.throws(() => report(ctx, w, { item, outcome: "done", body: "x" }), {
      code: "no-active-binding",
      message: /^no active binding for this worker at this generation/,
    });
  }
  assert.deepEqual(dumpTables(ctx.db), before);
  // and a binding that already resolved has nothing left to report
  report(ctx, who, { item: "t1", outcome: "done", body: "first" });
  assert.throws(() => report(ctx, who, { item: "t1", outcome: "done", body: "again" }), { code: "no-active-binding" });
});

test("an external edit moves the revision but not the binding, so the next report is refused", (t) => {
  const { ctx, who } = setup(t);
  editItem(ctx, { id: "t1", text: "rewritten by an import", external: true });
  const before = dumpTables(ctx.db);
  assert.throws(() => report(ctx, who, { item: "t1", outcome: "done", body: "x" }), {
    code: "revision-changed",
    message: REVISION_CHANGED,
    hint: "t1 is at revision 2, you accepted 1: read it, then `docket worker reconcile --item t1`",
  });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("a human edit or reply moves the accepted revision forward, so the report is accepted", (t) => {
  const { ctx, who } = setup(t);
  editItem(ctx, { id: "t1", text: "sharper wording" });
  replyItem(ctx, { id: "t1", text: "use the v2 API" });
  assert.deepEqual(showItem(ctx, "t1").bindings[0]!.acceptedRevision, 3);
  const r = report(ctx, who, {
    item: "t1",
    outcome: "done",
    body: "done with v2",
    answers: { "t1.1": "switched to v2" },
  });
  assert.equal(r.status, "resolved");
  assert.deepEqual(
    { ...row(ctx, "SELECT state, answer, answered_by FROM replies") },
    { state: "answered", answer: "switched to v2", answered_by: "rp1" },
  );
  assert.deepEqual(ctx.db.prepare("SELECT kind, delivery FROM messages ORDER BY rowid").all(), [
    { kind: "work", delivery: "cancelled" },
    { kind: "reply_review", delivery: "cancelled" },
    { kind: "reply_review", delivery: "cancelled" },
  ]);
});

test("done on a todo with an unanswered reply is refused and every table stays exactly as it was", (t) => {
  const { ctx, who } = setup(t);
  replyItem(ctx, { id: "t1", text: "what about mobile?" });
  const before = dumpTables(ctx.db);
  assert.throws(() => report(ctx, who, { item: "t1", outcome: "done", body: "done", callId: "k-1" }), {
    code: "unanswered-reply",
    message: /t1 has an unanswered reply \(t1\.1\)/,
  });
  assert.deepEqual(dumpTables(ctx.db), before);
  // released does not need the answer; the refused key was not remembered, so it can be used now
  assert.equal(
    report(ctx, who, { item: "t1", outcome: "released", body: "handing back", callId: "k-1" }).status,
    "resolved",
  );
});

test("answers naming a reply that is not on the item are refused", (t) => {
  const { ctx, who } = setup(t);
  const before = dumpTables(ctx.db);
  assert.throws(() => report(ctx, who, { item: "t1", outcome: "done", body: "x", answers: { "t9.1": "?" } }), {
    code: "unknown-reply",
  });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("one refused entry leaves the others committed, the call is refused naming it, and the dispatch resolves only with its last binding", (t) => {
  const { ctx, who, dispatch } = setup(t, ["todo", "todo", "request"]);
  replyItem(ctx, { id: "t2", text: "wait" });
  const entries = [
    { item: "t1", outcome: "done", body: "ok" },
    { item: "t2", outcome: "done", body: "ok" },
    { item: "r1", outcome: "maybe", body: "ok" },
  ];
  assert.throws(
    () => reportEntries(ctx, who, entries),
    (e: any) => {
      assert.equal(e.code, "unanswered-reply", "the first refusal's code");
      assert.match(
        e.message,
        /^t2: t2 has an unanswered reply \(t2\.1\).*; r1: a per-item outcome and explanation are required \(2 of 3 entries refused; the others were recorded\)$/,
      );
      assert.deepEqual(
        e.details.results.map((r: { item: string; status: string }) => [r.item, r.status]),
        [
          ["t1", "resolved"],
          ["t2", "refused"],
          ["r1", "refused"],
        ],
      );
      return true;
    },
  );
  assert.equal(
    row(ctx, "SELECT state FROM items WHERE id = 't1'").state,
    "done",
    "the accepted entry stayed committed",
  );
  assert.equal(row(ctx, "SELECT state FROM items WHERE id = 't2'").state, "open");
  assert.equal(row(ctx, "SELECT state FROM dispatches WHERE id = ?", dispatch).state, "active");
  assert.equal(row(ctx, "SELECT delivery FROM messages WHERE kind = 'work'").delivery, "queued");
  reportEntries(ctx, who, [
    { item: "t2", outcome: "released", body: "back" },
    { item: "r1", outcome: "blocked", body: "?" },
  ]);
  assert.equal(row(ctx, "SELECT state FROM dispatches WHERE id = ?", dispatch).state, "active");
  report(ctx, who, { item: "r1", outcome: "done", body: "now" });
  assert.equal(row(ctx, "SELECT state FROM dispatches WHERE id = ?", dispatch).state, "resolved");
  assert.deepEqual(invariantViolations(ctx.db), []);
});

test("a retry with the same key returns the first result and runs nothing twice", (t) => {
  const { ctx, who } = setup(t);
  const first = report(ctx, who, { item: "t1", outcome: "blocked", body: "need input", callId: "call-1" });
  const before = dumpTables(ctx.db);
  const again = report(ctx, who, { item: "t1", outcome: "blocked", body: "need input", callId: "call-1" });
  assert.deepEqual(again, first);
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("the same key with another payload is refused as an idempotency conflict", (t) => {
  const { ctx, who } = setup(t);
  report(ctx, who, { item: "t1", outcome: "blocked", body: "need input", callId: "call-1" });
  const before = dumpTables(ctx.db);
  assert.throws(() => report(ctx, who, { item: "t1", outcome: "done", body: "different", callId: "call-1" }), {
    code: "idempotency-conflict",
    message: /already used for a different report request/,
  });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("after an external edit the worker reconciles to the current revision and its report is accepted", async (t) => {
  const { reconcileItem } = await import("../../../src/engine/protocol/reconcile.js");
  const { ctx, who } = setup(t);
  editItem(ctx, { id: "t1", text: "imported change", external: true });
  const other = addWorker(ctx, "other");
  assert.throws(() => reconcileItem(ctx, other, "t1"), { code: "no-active-binding" });
  assert.deepEqual(reconcileItem(ctx, who, "t1"), {
    item: "t1",
    binding: "b1",
    previousRevision: 1,
    acceptedRevision: 2,
    text: "imported change",
    unansweredReplies: [],
  });
  assert.equal(report(ctx, who, { item: "t1", outcome: "done", body: "done against the import" }).status, "resolved");
  assert.throws(() => reconcileItem(ctx, { ...who, generation: 2 }, "t1"), { code: "generation-replaced" });
});
