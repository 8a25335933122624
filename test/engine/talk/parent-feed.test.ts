// What the parent session reads: the change stamp, dock rows, and notifications shown exactly once.

import { test } from "node:test";
import assert from "node:assert/strict";
import { openEngine } from "../../../src/engine/open.js";
import {
  dockRows,
  ledgerStamp,
  markNotificationsDelivered,
  pendingParentNotifications,
} from "../../../src/engine/talk/parent-feed.js";
import { fail, wait } from "../../../src/engine/protocol/protocol.js";
import { insertWorker } from "../../../src/ledger/workers/workers.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { answer, approve } from "../../../src/engine/review/judge.js";

test("the change stamp moves when another connection commits and stays when nothing changed", (t) => {
  const { ctx, home } = workLedger(t);
  const other = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  t.after(() => other.close());
  const before = ledgerStamp(ctx);
  assert.equal(ledgerStamp(ctx), before);
  addWorker(other);
  assert.notEqual(ledgerStamp(ctx), before);
});

test("dock rows list this project's unsettled workers with the derived state and open questions, in label order", (t) => {
  const { ctx, clock } = workLedger(t);
  const w1 = addWorker(ctx, "token-1");
  const w2 = addWorker(ctx, "token-2");
  const w3 = addWorker(ctx, "token-3");
  ctx.commands.run("test.elsewhere", {}, (tx) =>
    insertWorker(tx, {
      task: "other project",
      kind: "general",
      agent: "command",
      execution: {},
      cwd: "/elsewhere",
      projectRoot: "/elsewhere",
      workspace: () => "/elsewhere",
      workspaceMode: "shared",
      runToken: "x",
    }),
  );
  wait(ctx, w1, { question: "which way?" });
  fail(ctx, w2, { reason: "broken" });
  ctx.db.prepare("UPDATE workers SET state = 'ended' WHERE id = ?").run(w3.worker); // ended is settled: not in the dock
  clock.advanceMinutes(1);
  const rows = dockRows(ctx);
  assert.deepEqual(
    rows.map((r) => [r.worker, r.state, r.questions, r.version]),
    [
      ["w1", "needs_input", 1, null],
      ["w2", "failed", 0, null],
    ],
  );
  assert.equal(rows[0]!.liveness, "unknown", "no heartbeat and no pane probe: liveness is not claimed");
});

test("notifications are pending until marked delivered, oldest first, and dismissed ones are never shown", (t) => {
  const { ctx } = workLedger(t);
  const w1 = addWorker(ctx, "token-1");
  const w2 = addWorker(ctx, "token-2");
  wait(ctx, w1, { question: "first?", options: ["a", "b"] });
  fail(ctx, w2, { reason: "second" });
  const pending = pendingParentNotifications(ctx).fresh;
  assert.deepEqual(
    pending.map((n) => [n.kind, n.worker, n.body]),
    [
      ["question", "w1", "first?"],
      ["failed", "w2", "second"],
    ],
  );
  assert.deepEqual(pending[0]!.forHuman, ["1) a", "2) b"]);
  markNotificationsDelivered(ctx, [pending[0]!.id]);
  assert.deepEqual(
    pendingParentNotifications(ctx).fresh.map((n) => n.id),
    [pending[1]!.id],
  );
  ctx.db.prepare("UPDATE notifications SET dismissed_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").run(pending[1]!.id);
  assert.deepEqual(pendingParentNotifications(ctx), { fresh: [], stale: [] });
  markNotificationsDelivered(ctx, [pending[0]!.id]); // marking twice changes nothing
  assert.equal(
    (ctx.db.prepare("SELECT count(*) AS n FROM notifications WHERE delivered_at IS NOT NULL").get() as { n: number }).n,
    1,
  );
});

test("notices settled before anyone saw them — a judged or superseded version, an answered question, a deleted worker — are pending as stale", (t) => {
  const g = reviewGround(t);
  const judged = reviewWorker(t, g);
  const waiting = reviewWorker(t, g);
  const superseded = reviewWorker(t, g);
  const gone = reviewWorker(t, g);
  publish(g, judged, { "src/app.txt": appWith({ 1: "judged" }) });
  publish(g, waiting, { "src/other.txt": "waiting\n" });
  publish(g, superseded, { "README.md": "first\n" });
  publish(g, superseded, { "README.md": "second\n" });
  wait(g.ctx, gone, { question: "still there?" });
  approve(g.ctx, { target: judged.worker });
  const asker = reviewWorker(t, g);
  wait(g.ctx, asker, { question: "which way?" });
  answer(g.ctx, { worker: asker.worker, text: "left" });
  g.ctx.db.prepare("UPDATE workers SET deleted_at = '2026-03-01T10:00:00.000Z' WHERE id = ?").run(gone.worker); // as `docket delete` leaves it
  const { fresh, stale } = pendingParentNotifications(g.ctx);
  assert.deepEqual(
    fresh.map((n) => [n.kind, n.worker, n.body.split(" ")[0]]),
    [
      ["ready", waiting.worker, `worker-deliverable:${waiting.worker}:1`],
      ["ready", superseded.worker, `worker-deliverable:${superseded.worker}:2`],
    ],
  );
  assert.deepEqual(
    stale.map((n) => [n.kind, n.worker]),
    [
      ["ready", judged.worker],
      ["ready", superseded.worker],
      ["question", gone.worker],
      ["question", asker.worker],
    ],
  );
});
