// Attention marks a notice settled once what it announces was settled: its worker deleted, its question answered; an
// item report stands until dismissed. `docket attention` hides settled ones behind a count unless --all.

import { test } from "node:test";
import assert from "node:assert/strict";
import { attentionList } from "../../../src/engine/talk/attention.js";
import { insertNotification } from "../../../src/ledger/talk/notifications.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";

test("a notice about a deleted worker or a question nobody still asks is settled; an item report stands", (t) => {
  const { ctx } = workLedger(t, { env: { DOCKET_TMUX_SOCKET: "docket-test-unused-attention" } });
  const gone = addWorker(ctx, "a").worker;
  const asker = addWorker(ctx, "b").worker;
  ctx.commands.run("test.notices", null, (tx) => {
    insertNotification(tx, { kind: "failed", worker: gone, body: "exited 1" });
    insertNotification(tx, { kind: "question", worker: asker, body: "which port?" }); // its question is no longer open
    insertNotification(tx, { kind: "blocked", worker: asker, item: "t1", body: "need the password" });
    insertNotification(tx, { kind: "failed", worker: asker, body: "exited 2" }); // still failed, not reviewed: stands
    for (const w of [gone, asker]) updateWorker(tx, w, { state: "failed" });
  });
  const settledOf = () => attentionList(ctx).map((n) => [n.id, n.settled]);
  assert.deepEqual(settledOf(), [
    ["n1", false],
    ["n2", true],
    ["n3", false],
    ["n4", false],
  ]);
  ctx.commands.run("test.delete", null, (tx) => updateWorker(tx, gone, { deletedAt: tx.now }));
  assert.deepEqual(settledOf(), [
    ["n1", true],
    ["n2", true],
    ["n3", false],
    ["n4", false],
  ]);
});
