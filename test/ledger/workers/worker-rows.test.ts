// A worker row crosses the ledger as a camelCase `Worker` with its JSON columns checked: a patch names fields the way
// `Worker` does, a field no worker has is refused before anything is written, and a bad column is a named fault.

import { test } from "node:test";
import assert from "node:assert/strict";
import { getWorker, updateWorker } from "../../../src/ledger/workers/workers.js";
import type { WorkerPatch } from "../../../src/domain/workers/worker.js";
import { addWorker, dumpTables, workLedger } from "../../support/work-ledger.js";

test("a patch in camelCase reaches its columns: booleans as 0/1, the handoff record as JSON read back whole", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  const handoff = {
    sourceRef: "worker-deliverable:w9:1",
    sourceId: "worker-deliverable:w9",
    sourceVersion: 1,
    sourceKind: "worker" as const,
    approvingDecisionId: "dc1",
    useDecisionId: "dc2",
    approvedAt: "2026-01-01T00:00:00.000Z",
    sidecarPath: "/x/source-deliverable.md",
    planAuthorized: true,
  };
  ctx.commands.run("test.patch", null, (tx) =>
    updateWorker(tx, worker, { exited: true, exitCode: 3, windowId: "@4", sourceHandoff: handoff }),
  );
  const row = ctx.db.prepare("SELECT exited, exit_code, window_id FROM workers WHERE id = ?").get(worker);
  assert.deepEqual({ ...(row as object) }, { exited: 1, exit_code: 3, window_id: "@4" });
  const w = getWorker(ctx.db, worker)!;
  assert.deepEqual([w.exited, w.exitCode, w.windowId, w.sourceHandoff], [true, 3, "@4", handoff]);
});

test("a field no worker has (a snake_case column name) is refused and nothing is written", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  const before = dumpTables(ctx.db);
  const stray = { window_id: "@1", state: "ended" } as unknown as WorkerPatch;
  assert.throws(() => ctx.commands.run("test.stray", null, (tx) => updateWorker(tx, worker, stray)), {
    code: "worker-field-unknown",
    message: /no field "window_id"/,
  });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("a source_handoff column changed outside Docket is a named ledger fault when the worker is read", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  ctx.db.prepare("UPDATE workers SET source_handoff = ? WHERE id = ?").run('{"sourceRef": 5}', worker);
  assert.throws(() => getWorker(ctx.db, worker), {
    code: "ledger-column-invalid",
    message: new RegExp(`workers\\.source_handoff of ${worker} is not valid`),
  });
});
