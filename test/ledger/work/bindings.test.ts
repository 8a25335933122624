// Respawn moves exactly the worker's active bindings and their dispatches to the new generation.

import { test } from "node:test";
import assert from "node:assert/strict";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { report } from "../../../src/engine/protocol/report.js";
import { moveBindingsToGeneration } from "../../../src/ledger/work/bindings.js";
import { hashRunToken, updateWorker } from "../../../src/ledger/workers/workers.js";
import { addWorker, invariantViolations, workLedger } from "../../support/work-ledger.js";

test("respawn moves the worker's active bindings and their dispatches to the new generation, and nothing else", (t) => {
  const { ctx } = workLedger(t);
  const who = addWorker(ctx);
  const other = addWorker(ctx, "other");
  for (const text of ["a", "b", "c"]) addItem(ctx, { kind: "todo", text });
  dispatchItems(ctx, { worker: who.worker, items: ["t1", "t2"] });
  dispatchItems(ctx, { worker: other.worker, items: ["t3"] });
  report(ctx, who, { item: "t1", outcome: "done", body: "ok" });
  const moved = ctx.commands.run("test.respawn", {}, (tx) => {
    updateWorker(tx, who.worker, { generation: 2, runTokenHash: hashRunToken("token-2") });
    return moveBindingsToGeneration(tx, who.worker, 2);
  }).result;
  assert.deepEqual(moved, ["b2"]);
  assert.deepEqual(ctx.db.prepare("SELECT id, generation, state FROM bindings ORDER BY rowid").all(), [
    { id: "b1", generation: 1, state: "resolved" },
    { id: "b2", generation: 2, state: "active" },
    { id: "b3", generation: 1, state: "active" },
  ]);
  assert.deepEqual(ctx.db.prepare("SELECT id, generation FROM dispatches ORDER BY rowid").all(), [
    { id: "dp1", generation: 2 },
    { id: "dp2", generation: 1 },
  ]);
  // the old generation is fenced; the new one can report
  assert.throws(() => report(ctx, who, { item: "t2", outcome: "done", body: "old" }), { code: "generation-replaced" });
  assert.equal(
    report(
      ctx,
      { worker: who.worker, generation: 2, runToken: "token-2" },
      { item: "t2", outcome: "done", body: "new" },
    ).status,
    "resolved",
  );
  assert.deepEqual(invariantViolations(ctx.db), []);
});
