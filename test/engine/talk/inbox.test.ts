// Inbox delivery state in a real ledger: queued → delivered (claimed by one generation) → read (seen by it),
// fenced by generation; a respawn re-queues what the replaced process never read.

import { test } from "node:test";
import assert from "node:assert/strict";
import { claimInbox, formatInboxMessage, ledgerVersion, markInboxRead } from "../../../src/engine/talk/inbox.js";
import { recordHeartbeat, recordTurn, recordWorkerExit } from "../../../src/engine/workers/lifecycle.js";
import { tellWorker } from "../../../src/engine/talk/tell.js";
import { messageDeliveries, requeueUnread } from "../../../src/ledger/talk/message-delivery.js";
import { hashRunToken, updateWorker } from "../../../src/ledger/workers/workers.js";
import { insertLaunch } from "../../../src/ledger/workers/launches.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";
import { openEngine } from "../../../src/engine/open.js";

const socket = { DOCKET_TMUX_SOCKET: "docket-test-unused-inbox" };

test("a claimed message is delivered to that generation and read only when that generation confirms it", (t) => {
  const { ctx } = workLedger(t, { env: socket });
  const who = addWorker(ctx);
  const told = tellWorker(ctx, { worker: who.worker, text: "line one\r\nline two   \n\n" });
  assert.deepEqual(told, { message: "m1", delivery: "queued", waiting: false });
  const claimed = claimInbox(ctx, who);
  assert.deepEqual(
    claimed.map((m) => [m.id, m.kind, m.body, m.deliverAs]),
    [["m1", "tell", "line one\nline two", "steer"]],
  );
  assert.equal(formatInboxMessage(claimed[0]!), "[docket · from the human]\nline one\nline two");
  assert.deepEqual(claimInbox(ctx, who), [], "a delivered message is not claimed twice");
  assert.deepEqual(
    messageDeliveries(ctx.db, who.worker).map((m) => m.delivery),
    ["delivered"],
  );
  assert.deepEqual(markInboxRead(ctx, who, ["m1", "m99"]), ["m1"]);
  assert.deepEqual(
    messageDeliveries(ctx.db, who.worker).map((m) => m.delivery),
    ["read"],
  );
});

test("a replaced generation can neither claim nor acknowledge messages, and unread ones go back to the queue", (t) => {
  const { ctx } = workLedger(t, { env: socket });
  const who = addWorker(ctx);
  tellWorker(ctx, { worker: who.worker, text: "first", after: true });
  assert.equal(claimInbox(ctx, who)[0]!.deliverAs, "followUp");
  ctx.commands.run("test.respawn", {}, (tx) => {
    updateWorker(tx, who.worker, { generation: 2, runTokenHash: hashRunToken("token-2") });
    insertLaunch(tx, who.worker, 2, "token-2");
    requeueUnread(tx, who.worker);
  });
  assert.throws(() => claimInbox(ctx, who), { code: "generation-replaced" });
  assert.throws(() => markInboxRead(ctx, who, ["m1"]), { code: "generation-replaced" });
  const g2 = { worker: who.worker, generation: 2, runToken: "token-2" };
  assert.deepEqual(
    claimInbox(ctx, g2).map((m) => m.id),
    ["m1"],
  );
  assert.deepEqual(markInboxRead(ctx, g2, ["m1"]), ["m1"]);
});

test("data_version moves when another connection commits, so the worker polls cheaply", (t) => {
  const { ctx, home } = workLedger(t, { env: socket });
  const who = addWorker(ctx);
  const other = openEngine({ env: { DOCKET_HOME: home, ...socket }, cwd: home });
  t.after(() => other.close());
  const before = ledgerVersion(ctx);
  assert.equal(ledgerVersion(ctx), before);
  tellWorker(other, { worker: who.worker, text: "hello" });
  assert.notEqual(ledgerVersion(ctx), before);
});

test("heartbeats and turns are fenced and move the lifecycle; an exit settles only the current generation", (t) => {
  const { ctx } = workLedger(t, { env: socket });
  const who = addWorker(ctx);
  assert.deepEqual(recordHeartbeat(ctx, who, { model: "faux/faux-1", thinking: "off", pid: 42 }), {
    worker: who.worker,
    state: "active",
  });
  assert.equal(recordTurn(ctx, who, "end"), "idle");
  assert.equal(recordHeartbeat(ctx, who).state, "idle", "a heartbeat does not wake an idle worker");
  assert.equal(recordTurn(ctx, who, "start"), "active");
  assert.throws(() => recordHeartbeat(ctx, { ...who, runToken: "forged" }), { code: "run-token-mismatch" });
  const stale = recordWorkerExit(ctx, { ...who, generation: 0 }, 0);
  assert.equal(stale.settled, false);
  const exit = recordWorkerExit(ctx, who, 7);
  assert.deepEqual([exit.settled, exit.state], [true, "failed"]);
  const row = ctx.db
    .prepare("SELECT state, exited, exit_code, last_error, model_in_effect, pid FROM workers WHERE id = ?")
    .get(who.worker);
  assert.deepEqual(row, {
    state: "failed",
    exited: 1,
    exit_code: 7,
    last_error: "worker process exited before reporting (exit 7)",
    model_in_effect: "faux/faux-1",
    pid: 42,
  });
  assert.equal(recordWorkerExit(ctx, who, 0).settled, false, "an exit is recorded once");
  assert.throws(() => recordHeartbeat(ctx, who), { code: "worker-exited" });
});

test("telling an answer resolves only the named question and wakes the worker when none is left", (t) => {
  const { ctx } = workLedger(t, { env: socket });
  const who = addWorker(ctx);
  ctx.commands.run("test.questions", {}, (tx) => {
    for (const id of ["q1", "q2"]) {
      tx.db
        .prepare(
          "INSERT INTO questions (id, worker, generation, text, state, created_at) VALUES (?, ?, 1, ?, 'open', ?)",
        )
        .run(id, who.worker, `question ${id}`, tx.now);
    }
    updateWorker(tx, who.worker, { state: "needs_input" });
  });
  const r = tellWorker(ctx, { worker: who.worker, text: "use plan B", question: "q1" });
  const states = () => ctx.db.prepare("SELECT id, state, answer FROM questions ORDER BY id").all();
  assert.deepEqual(states(), [
    { id: "q1", state: "answered", answer: "use plan B" },
    { id: "q2", state: "open", answer: null },
  ]);
  assert.equal(
    (ctx.db.prepare("SELECT kind, question FROM messages WHERE id = ?").get(r.message) as any).kind,
    "answer",
  );
  assert.equal((ctx.db.prepare("SELECT state FROM workers").get() as any).state, "needs_input");
  assert.throws(() => tellWorker(ctx, { worker: who.worker, text: "again", question: "q1" }), {
    code: "question-not-open",
    message: "question q1 is already answered; nothing was sent",
  });
  assert.equal(
    (ctx.db.prepare("SELECT count(*) AS n FROM messages").get() as any).n,
    1,
    "the refused answer queued nothing",
  );
  tellWorker(ctx, { worker: who.worker, text: "and B for this too", question: "q2" });
  assert.equal((ctx.db.prepare("SELECT state FROM workers").get() as any).state, "active");
});
