// Claim: a message to a command worker is delivered only when its pane took the paste (observed, never assumed): a
// pane that is gone leaves it queued, and a respawn never re-queues words a pane already took.

import { test } from "node:test";
import assert from "node:assert/strict";
import { tellWorker } from "../../../src/engine/talk/tell.js";
import { requeueUnread } from "../../../src/ledger/talk/message-delivery.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { tmuxServer } from "../../support/tmux.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";

test("a command worker whose pane is gone keeps the message queued, with the failed paste said", (t) => {
  const server = tmuxServer(t);
  server.tmux("new-session", "-d", "-s", "keepalive"); // a running server that has no such pane
  const { ctx } = workLedger(t, { env: { DOCKET_TMUX_SOCKET: server.socket } });
  const { worker } = addWorker(ctx);
  ctx.commands.run("test.pane", null, (tx) => updateWorker(tx, worker, { paneId: "%9999", state: "active" }));
  const r = tellWorker(ctx, { worker, text: "are you there?" });
  assert.deepEqual({ ...r }, { message: "m1", delivery: "queued", waiting: false, pasted: "failed" });
  assert.deepEqual(ctx.db.prepare("SELECT delivery, delivered_via FROM messages").get(), {
    delivery: "queued",
    delivered_via: null,
  });
});

test("a respawn re-queues words an inbox reader claimed but never read, not words a pane already took", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  ctx.commands.run("test.messages", null, (tx) => {
    tx.db
      .prepare(
        "INSERT INTO messages (id, worker, kind, body, delivery, delivered_generation, delivered_via, created_at) VALUES ('m1', ?, 'tell', 'pasted', 'delivered', 1, 'pane', ?), ('m2', ?, 'tell', 'claimed', 'delivered', 1, 'inbox', ?)",
      )
      .run(worker, tx.now, worker, tx.now);
  });
  assert.equal(ctx.commands.run("test.requeue", null, (tx) => requeueUnread(tx, worker)).result, 1);
  assert.deepEqual(ctx.db.prepare("SELECT id, delivery FROM messages ORDER BY id").all(), [
    { id: "m1", delivery: "delivered" },
    { id: "m2", delivery: "queued" },
  ]);
});
