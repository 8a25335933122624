// Obligations and attention in a real ledger: due times, parks, blocked reports and notifications until dismissed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { report } from "../../../src/engine/protocol/report.js";
import { attentionList, dismissAttention } from "../../../src/engine/talk/attention.js";
import { obligationList, parkObligationUntil, unparkObligationNow } from "../../../src/engine/work/obligations.js";
import { addWorker, dumpTables, workLedger } from "../../support/work-ledger.js";

function bound(t: { after(fn: () => void): void }) {
  const l = workLedger(t);
  const who = addWorker(l.ctx);
  addItem(l.ctx, { kind: "todo", text: "a" });
  addItem(l.ctx, { kind: "todo", text: "b" });
  dispatchItems(l.ctx, { worker: who.worker, items: ["t1", "t2"] });
  return { ...l, who };
}

const ids = (list: { id: string }[]) => list.map((o) => o.id);

test("an obligation becomes due when its time comes, and a park holds it back until the park ends", (t) => {
  const { ctx, clock } = bound(t);
  assert.deepEqual(ids(obligationList(ctx, {})), ["o1", "o2"]);
  assert.deepEqual(obligationList(ctx, { due: true }), []);
  clock.advanceMinutes(61);
  assert.deepEqual(ids(obligationList(ctx, { due: true })), ["o1", "o2"]);
  const parked = parkObligationUntil(ctx, { id: "o1", until: "2026-01-01T03:00:00+01:00" });
  assert.equal(parked.parkedUntil, "2026-01-01T02:00:00.000Z");
  assert.deepEqual(ids(obligationList(ctx, { due: true })), ["o2"]);
  clock.set("2026-01-01T02:00:00.000Z");
  assert.deepEqual(ids(obligationList(ctx, { due: true })), ["o1", "o2"]);
  parkObligationUntil(ctx, { id: "o2", until: "2026-01-02T00:00:00Z" });
  assert.deepEqual(unparkObligationNow(ctx, { id: "o2" }).parkedUntil, null);
  assert.deepEqual(ids(obligationList(ctx, { due: true })), ["o1", "o2"]);
});

test("a blocked report unparks its obligation and makes it due now", (t) => {
  const { ctx, who } = bound(t);
  parkObligationUntil(ctx, { id: "o1", until: "2026-02-01T00:00:00Z" });
  report(ctx, who, { item: "t1", outcome: "blocked", body: "need a key" });
  assert.deepEqual(ids(obligationList(ctx, { due: true })), ["o1"]);
});

test("resolved obligations show their disposition under --all and cannot be parked", (t) => {
  const { ctx, who } = bound(t);
  report(ctx, who, { item: "t1", outcome: "done", body: "ok" });
  assert.deepEqual(ids(obligationList(ctx, {})), ["o2"]);
  const all = obligationList(ctx, { all: true });
  assert.deepEqual(
    { ...all[0] },
    {
      id: "o1",
      item: "t1",
      worker: "w1",
      state: "resolved",
      dueAt: "2026-01-01T01:00:00.000Z",
      parkedUntil: null,
      disposition: "rp1",
    },
  );
  const before = dumpTables(ctx.db);
  assert.throws(() => parkObligationUntil(ctx, { id: "o1", until: "2027-01-01T00:00:00Z" }), {
    code: "obligation-resolved",
    message: "o1 is already resolved by rp1; nothing to park",
  });
  assert.throws(() => unparkObligationNow(ctx, { id: "o1" }), { code: "obligation-resolved" });
  assert.throws(() => parkObligationUntil(ctx, { id: "o9", until: "2027-01-01T00:00:00Z" }), {
    code: "obligation-not-found",
    message: "no obligation o9",
  });
  assert.throws(() => parkObligationUntil(ctx, { id: "o2", until: "tomorrow" }), { code: "bad-time" });
  assert.throws(() => parkObligationUntil(ctx, { id: "o2", until: "2027-01-01T00:00:00" }), { code: "bad-time" });
  assert.throws(() => parkObligationUntil(ctx, { id: "o2", until: "2025-12-31T00:00:00Z" }), { code: "park-in-past" });
  assert.throws(() => parkObligationUntil(ctx, { id: "b2", until: "2027-01-01T00:00:00Z" }), {
    code: "bad-obligation-id",
  });
  assert.throws(() => obligationList(ctx, { due: true, all: true }), { code: "bad-flags" });
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("attention lists blocked and outcome notifications with the worker's lines, until dismissed", (t) => {
  const { ctx, who } = bound(t);
  report(ctx, who, { item: "t1", outcome: "blocked", body: "need the password", forHuman: ["send it via 1password"] });
  report(ctx, who, { item: "t2", outcome: "abandoned", body: "duplicate of t1", forHuman: [] });
  assert.deepEqual(attentionList(ctx), [
    {
      id: "n1",
      kind: "blocked",
      worker: "w1",
      item: "t1",
      body: "need the password",
      forHuman: ["send it via 1password"],
      settled: false,
      outcome: "blocked",
    },
    {
      id: "n2",
      kind: "outcome",
      worker: "w1",
      item: "t2",
      body: "duplicate of t1",
      forHuman: [],
      settled: false,
      outcome: "abandoned",
    },
  ]);
  dismissAttention(ctx, ["n1"]);
  assert.deepEqual(ids(attentionList(ctx)), ["n2"]);
  assert.throws(() => dismissAttention(ctx, ["n7"]), { code: "notification-not-found" });
  assert.deepEqual(ids(attentionList(ctx)), ["n2"]);
});
