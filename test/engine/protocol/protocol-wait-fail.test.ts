// The worker protocol through the real engine, past done: wait asks once, fail publishes nothing, the board never
// gates done, and review reads refuse a missing or invalid sidecar.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, unlinkSync } from "node:fs";
import { done, fail, todos, wait } from "../../../src/engine/protocol/protocol.js";
import { currentDeliverable, deliverableByRef, workerRefOf } from "../../../src/engine/review/deliverables.js";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { deliverablePath, listDeliverableVersions } from "../../../src/files/workers/deliverables.js";
import { isDocketError } from "../../../src/domain/errors.js";
import { dumpTables } from "../../support/work-ledger.js";
import { row, setup } from "./protocol-setup.js";

test("a wait whose blocked entry is refused asks nothing: no question, no state change, no report", (t) => {
  const { ctx, w, who } = setup(t);
  addItem(ctx, { kind: "todo", text: "first" });
  addItem(ctx, { kind: "todo", text: "second" });
  dispatchItems(ctx, { worker: w.worker, items: ["t1"] });
  const before = dumpTables(ctx.db);
  assert.throws(
    () =>
      wait(ctx, who, {
        question: "Which database?",
        blocked: [
          { item: "t1", body: "need the choice" },
          { item: "t2", body: "not mine" },
        ],
        callId: "w-1",
      }),
    { code: "no-active-binding", message: /^docket_wait asked nothing — t2: no active binding/ },
  );
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("wait records one question, moves the worker to needs_input and reports blocked items; a later done drops the question", (t) => {
  const { ctx, w, who } = setup(t);
  addItem(ctx, { kind: "todo", text: "first" });
  dispatchItems(ctx, { worker: w.worker, items: ["t1"] });
  const r = wait(ctx, who, {
    question: "Which database?",
    options: ["sqlite", " ", "postgres"],
    recommend: "sqlite",
    risk: "migration cost",
    blocked: [{ item: "t1", body: "need the choice" }],
    callId: "w-1",
  });
  assert.equal(r.state, "needs_input");
  assert.deepEqual(r.blocked, [{ item: "t1", status: "pending", reportId: "rp1" }]);
  assert.equal(row(ctx, "SELECT state FROM workers WHERE id = ?", w.worker).state, "needs_input");
  assert.deepEqual(
    { ...row(ctx, "SELECT text, options, recommend, risk, state FROM questions WHERE id = ?", r.question) },
    {
      text: "Which database?",
      options: '["sqlite","postgres"]',
      recommend: "sqlite",
      risk: "migration cost",
      state: "open",
    },
  );
  assert.equal(row(ctx, "SELECT count(*) AS n FROM notifications WHERE kind = 'question'").n, 1);
  assert.deepEqual(
    wait(ctx, who, {
      question: "Which database?",
      options: ["sqlite", "postgres"],
      recommend: "sqlite",
      risk: "migration cost",
      blocked: [{ item: "t1", body: "need the choice" }],
      callId: "w-1",
    }),
    r,
    "same call id, same question",
  );
  done(ctx, who, { callId: "d", body: "b", outcome: "completed", summary: "s" });
  assert.equal(row(ctx, "SELECT state FROM questions WHERE id = ?", r.question).state, "dropped");
  assert.throws(
    () => wait(ctx, who, { question: "  " }),
    (e) => isDocketError(e) && e.code === "question-empty",
  );
});

test("one call id used by wait and then by done is two calls: each tool replays its own, neither conflicts", (t) => {
  const { ctx, w, who } = setup(t);
  addItem(ctx, { kind: "todo", text: "first" });
  dispatchItems(ctx, { worker: w.worker, items: ["t1"] });
  const asked = wait(ctx, who, {
    question: "Which database?",
    blocked: [{ item: "t1", body: "need the choice" }],
    callId: "c1",
  });
  assert.deepEqual(asked.blocked, [{ item: "t1", status: "pending", reportId: "rp1" }]);
  const finished = done(ctx, who, {
    callId: "c1",
    body: "b",
    outcome: "completed",
    summary: "s",
    items: [{ item: "t1", outcome: "done", body: "chose sqlite" }],
  });
  assert.deepEqual(finished.items, [{ item: "t1", status: "resolved", reportId: "rp2" }]);
  assert.equal(row(ctx, "SELECT state FROM items WHERE id = 't1'").state, "done");
  const before = dumpTables(ctx.db);
  assert.deepEqual(
    wait(ctx, who, { question: "Which database?", blocked: [{ item: "t1", body: "need the choice" }], callId: "c1" }),
    asked,
    "a retried wait replays",
  );
  assert.deepEqual(
    done(ctx, who, {
      callId: "c1",
      body: "b",
      outcome: "completed",
      summary: "s",
      items: [{ item: "t1", outcome: "done", body: "chose sqlite" }],
    }),
    finished,
    "a retried done replays",
  );
  assert.deepEqual(dumpTables(ctx.db), before);
  assert.throws(
    () => wait(ctx, who, { question: "Which cache?", callId: "c1" }),
    { code: "idempotency-conflict" },
    "the same tool with the same call id and another request is still a conflict",
  );
});

test("fail moves the worker to failed with the reason and publishes nothing", (t) => {
  const { ctx, w, who } = setup(t);
  const r = fail(ctx, who, { reason: "the repo does not build" });
  assert.deepEqual(r, { state: "failed", reason: "the repo does not build" });
  assert.deepEqual(
    { ...row(ctx, "SELECT state, last_error, deliverable_ref FROM workers WHERE id = ?", w.worker) },
    { state: "failed", last_error: "the repo does not build", deliverable_ref: null },
  );
  assert.equal(row(ctx, "SELECT kind FROM notifications").kind, "failed");
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), []);
  assert.throws(
    () => fail(ctx, who, { reason: "" }),
    (e) => isDocketError(e) && e.code === "reason-empty",
  );
});

test("todos replaces the board on the worker row and never gates done", (t) => {
  const { ctx, w, who } = setup(t);
  todos(ctx, who, [{ text: "a", state: "in_progress" }, { text: "b" }]);
  todos(ctx, who, [{ id: "x", text: "only one" }]);
  assert.deepEqual(JSON.parse(row(ctx, "SELECT todos FROM workers WHERE id = ?", w.worker).todos as string), [
    { id: "x", text: "only one", state: "pending" },
  ]);
  assert.equal(done(ctx, who, { callId: "c", body: "b", outcome: "completed", summary: "s" }).deliverable.version, 1);
});

test("review reads refuse a missing or invalid sidecar with what to do, and never fall back", (t) => {
  const { ctx, w, who } = setup(t);
  assert.throws(
    () => deliverableByRef(ctx, workerRefOf(w.worker)),
    (e) =>
      isDocketError(e) &&
      e.code === "no-deliverable" &&
      e.message === `${w.worker} has not published a deliverable yet`,
  );
  done(ctx, who, { callId: "c1", body: "b", outcome: "completed", summary: "s" });
  assert.throws(
    () => deliverableByRef(ctx, workerRefOf(w.worker), 2),
    (e) => isDocketError(e) && e.code === "no-such-version",
  );
  writeFileSync(`${deliverablePath(ctx.home, w.worker, 1)}.x`, "");
  unlinkSync(deliverablePath(ctx.home, w.worker, 1));
  assert.throws(
    () => deliverableByRef(ctx, workerRefOf(w.worker)),
    (e) =>
      isDocketError(e) &&
      e.code === "deliverable-invalid" &&
      e.message.startsWith(`deliverable worker-deliverable:${w.worker}:1 is missing or invalid (`) &&
      e.message.endsWith("restore it or ask the worker to publish a new version"),
  );
  const cur = currentDeliverable(ctx, w.worker)!;
  assert.equal(cur.pointer.version, 1);
  assert.equal(cur.read.ok, false);
  writeFileSync(
    deliverablePath(ctx.home, w.worker, 1),
    JSON.stringify({ schemaVersion: 1, id: "worker-deliverable:w99" }),
  );
  assert.throws(
    () => deliverableByRef(ctx, workerRefOf(w.worker)),
    (e) => isDocketError(e) && e.code === "deliverable-invalid" && e.message.includes("does not belong to"),
  );
  assert.throws(
    () => deliverableByRef(ctx, workerRefOf("bogus")),
    (e) => isDocketError(e) && e.code === "bad-deliverable-ref",
  );
});
