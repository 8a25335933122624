// Claim: what a listing reads in SQL is what it would keep of every row: the unsettled workers (isSettled, the domain's
// rule), and the settled ones not yet done with (still running, or their pane not captured); no other project's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isSettled, type PersistedState } from "../../../src/domain/workers/lifecycle.js";
import { listedWorkersOf, workersOf } from "../../../src/ledger/workers/fleet-reads.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { insertShellWorker, workLedger } from "../../support/work-ledger.js";

const STATES: PersistedState[] = ["starting", "active", "idle", "needs_input", "ready", "failed", "ended"];

test("a listing reads exactly the unsettled workers and the settled ones not yet done with", (t) => {
  const { ctx } = workLedger(t);
  const root = ctx.projectRoot();
  ctx.commands.run("test.fleet", {}, (tx) => {
    let n = 0;
    const add = (projectRoot: string) => insertShellWorker(tx, projectRoot, `t${n++}`);
    for (const state of STATES)
      for (const reviewed of [false, true])
        for (const exited of [false, true])
          for (const captured of [false, true])
            updateWorker(tx, add(root), {
              state,
              reviewedAt: reviewed ? tx.now : null,
              exited,
              paneCapturedAt: captured ? tx.now : null,
            });
    updateWorker(tx, add(`${root}-other`), { state: "active" });
    updateWorker(tx, add(root), { state: "active", deletedAt: tx.now });
  });
  const kept = workersOf(ctx.db, { projectRoot: root })
    .filter((r) => !isSettled(r) || !r.exited || r.paneCapturedAt === null)
    .map((r) => r.id);
  assert.deepEqual(
    listedWorkersOf(ctx.db, root).map((r) => r.id),
    kept,
  );
  assert.ok(kept.length < STATES.length * 8, "some settled workers done with are left out");
});
