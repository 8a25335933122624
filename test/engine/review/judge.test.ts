// Review decisions bind one exact version; only a human's approval counts; decision rows are append-only.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isDocketError } from "../../../src/domain/errors.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approve, answer, discard, reject, revise } from "../../../src/engine/review/judge.js";
import { approvalOf } from "../../../src/engine/review/target.js";
import { verdictCard, verdictQueue, formatVerdictCard } from "../../../src/engine/review/verdict.js";
import { decisionLog } from "../../../src/engine/review/decision-log.js";
import { wait } from "../../../src/engine/protocol/protocol.js";
import { recordDecisionDebt } from "../../../src/ledger/review/decisions.js";
import { requireWorker } from "../../../src/ledger/workers/workers.js";
import { appWith, decisionCount, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { codeOf } from "../../support/errors.js";

test("approving v1 never approves v2: the new version is unjudged and the card says so", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const count = (table: string) => (g.ctx.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const before = { messages: count("messages"), chips: count("chips"), workers: count("workers") };
  const a = approve(g.ctx, { target: w.worker });
  assert.deepEqual(a.decision, { id: a.decision.id, verb: "approve", worker: w.worker, deliverable: v1 });
  assert.deepEqual(
    { messages: count("messages"), chips: count("chips"), workers: count("workers") },
    before,
    "approval queues nothing and starts nothing",
  );
  assert.ok(approvalOf(g.ctx.db, v1));
  const v2 = publish(g, w, { "src/app.txt": appWith({ 3: "three", 4: "four" }) });
  assert.equal(v2.version, 2);
  assert.equal(approvalOf(g.ctx.db, v2), undefined);
  assert.ok(approvalOf(g.ctx.db, v1), "v1 stays approved as v1");
  const card = verdictCard(g.ctx, w.worker);
  assert.equal(card.approved, false);
  assert.deepEqual(card.deliverable, v2);
  assert.ok(card.actions.includes("approve"));
});

test("a bare worker id naming an older version is refused and changes nothing; the exact ref is accepted", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 1: "one" }) });
  publish(g, w, { "src/app.txt": appWith({ 1: "uno" }) });
  const before = decisionCount(g.ctx);
  assert.throws(
    () => approve(g.ctx, { target: w.worker, version: 1 }),
    codeOf("older-version", new RegExp(`${w.worker} v1 is older than its current version v2; nothing changed`)),
  );
  assert.throws(() => reject(g.ctx, { target: w.worker, version: 1 }), codeOf("older-version"));
  assert.equal(decisionCount(g.ctx), before);
  const exact = approve(g.ctx, { target: `worker-deliverable:${w.worker}:1` });
  assert.equal(exact.decision.deliverable?.version, 1);
  assert.match(exact.notes.join("\n"), /older than .* current version v2; this applies to v1 only/);
  assert.equal(
    approvalOf(g.ctx.db, { id: `worker-deliverable:${w.worker}`, version: 2, ref: `worker-deliverable:${w.worker}:2` }),
    undefined,
  );
});

test("a card bound to the version it showed refuses to act once a newer version appeared", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 1: "one" }) });
  publish(g, w, { "src/app.txt": appWith({ 1: "uno" }) });
  assert.throws(
    () => approve(g.ctx, { target: w.worker, expectVersion: 1 }),
    codeOf("version-moved", /published v2 while you were reviewing v1; nothing changed/),
  );
  assert.equal(decisionCount(g.ctx), 0);
});

test("a later rejection supersedes the approval of the same version", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  approve(g.ctx, { target: w.worker });
  const again = approve(g.ctx, { target: w.worker });
  assert.match(again.notes.join("\n"), /already approved/);
  reject(g.ctx, { target: w.worker, note: "wrong approach" });
  assert.equal(approvalOf(g.ctx.db, v1), undefined);
  assert.equal(verdictCard(g.ctx, w.worker).approved, false);
});

test("a parent agent can never approve: the ledger refuses the row, and nothing is recorded", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const before = decisionCount(g.ctx);
  assert.throws(
    () => approve(g.ctx, { target: w.worker, actor: "parent-agent" }),
    (e: unknown) => isDocketError(e) && e.code === "parent-agent-cannot-judge",
  );
  assert.equal(decisionCount(g.ctx), before);
  assert.equal(approvalOf(g.ctx.db, v1), undefined);
});

test("revise binds the note to that exact version, queues a review_note, and the next done is v2", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  assert.deepEqual(
    verdictQueue(g.ctx).map((c) => c.worker),
    [w.worker],
    "v1 waits on the human",
  );
  const r = revise(g.ctx, { target: w.worker, note: "also handle line 5\nplease" });
  assert.equal(r.decision.verb, "revise");
  assert.equal(
    verdictCard(g.ctx, w.worker).detail.judgment,
    `revision asked (${r.decision.id}): the worker's next done becomes the next version`,
  );
  assert.deepEqual(
    verdictQueue(g.ctx).map((c) => c.worker),
    [],
    "a revised version waits on its worker, not in the queue",
  );
  const d = g.ctx.db.prepare("SELECT note, deliverable_ref FROM decisions WHERE id = ?").get(r.decision.id) as {
    note: string;
    deliverable_ref: string;
  };
  assert.deepEqual(
    { ...d },
    { note: "also handle line 5\nplease", deliverable_ref: `worker-deliverable:${w.worker}:1` },
  );
  const m = g.ctx.db.prepare("SELECT kind, body, delivery FROM messages WHERE worker = ?").all(w.worker) as {
    kind: string;
    body: string;
    delivery: string;
  }[];
  assert.deepEqual(
    m.map((x) => ({ ...x })),
    [
      {
        kind: "review_note",
        body: `Request revision for worker-deliverable:${w.worker}:1 (version 1):\nalso handle line 5\nplease`,
        delivery: "queued",
      },
    ],
  );
  assert.equal(publish(g, w, { "src/app.txt": appWith({ 2: "two", 5: "five" }) }).version, 2);
  assert.deepEqual(
    verdictQueue(g.ctx).map((c) => c.worker),
    [w.worker],
    "v2 is back in the queue",
  );
  assert.equal(verdictCard(g.ctx, w.worker).detail.judgment, "not judged");
  assert.throws(() => revise(g.ctx, { target: w.worker, note: "  " }), codeOf("empty-note"));
});

test("answer resolves the oldest open question, queues an answer message and records a decision with its risk", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const who = { worker: w.worker, generation: 1, runToken: w.runToken };
  const q1 = wait(g.ctx, who, {
    question: "Which database?",
    options: ["sqlite", "postgres"],
    risk: "migration cost",
  }).question;
  const q2 = wait(g.ctx, who, { question: "Keep the old API?" }).question;
  const r = answer(g.ctx, { worker: w.worker, text: "sqlite" });
  assert.equal(r.decision.verb, "answer");
  assert.match(r.notes.join("\n"), /1 more open question/);
  const row = g.ctx.db
    .prepare("SELECT option, risk, question FROM decisions WHERE id = ?")
    .get(r.decision.id) as Record<string, unknown>;
  assert.deepEqual({ ...row }, { option: "sqlite", risk: "migration cost", question: q1 });
  assert.equal(requireWorker(g.ctx.db, w.worker).state, "needs_input");
  answer(g.ctx, { worker: w.worker, question: q2, text: "no" });
  assert.equal(requireWorker(g.ctx.db, w.worker).state, "active");
  const msgs = g.ctx.db
    .prepare("SELECT kind, body, question FROM messages WHERE worker = ? ORDER BY rowid")
    .all(w.worker)
    .map((x) => ({ ...(x as object) }));
  assert.deepEqual(msgs, [
    { kind: "answer", body: "sqlite", question: q1 },
    { kind: "answer", body: "no", question: q2 },
  ]);
  const before = decisionCount(g.ctx);
  assert.throws(
    () => answer(g.ctx, { worker: w.worker, text: "hello" }),
    codeOf("no-open-question", new RegExp(`${w.worker} has no open question; nothing changed`)),
  );
  assert.equal(decisionCount(g.ctx), before);
});

test("decision rows cannot be updated or deleted, even through raw SQL", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const { decision } = approve(g.ctx, { target: w.worker });
  assert.throws(
    () => g.ctx.db.prepare("UPDATE decisions SET verb = 'reject' WHERE id = ?").run(decision.id),
    /append-only: a decision row cannot be updated/,
  );
  assert.throws(
    () => g.ctx.db.prepare("DELETE FROM decisions WHERE id = ?").run(decision.id),
    /append-only: a decision row cannot be deleted/,
  );
  assert.throws(() => g.ctx.db.exec("DELETE FROM decisions"), /append-only/);
  const row = g.ctx.db.prepare("SELECT verb FROM decisions WHERE id = ?").get(decision.id) as { verb: string };
  assert.equal(row.verb, "approve");
});

test("the log counts decisions per verb inside the window and reports decision debt", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const w2 = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  approve(g.ctx, { target: w.worker });
  revise(g.ctx, { target: w.worker, note: "more" });
  reject(g.ctx, { target: w.worker });
  publish(g, w2, { "src/other.txt": "a\n" });
  g.ctx.commands.run("test.prune", {}, (tx) => recordDecisionDebt(tx, requireWorker(tx.db, w2.worker)));
  g.clock.advanceMinutes(60 * 24 * 10);
  approve(g.ctx, { target: w.worker });
  const week = decisionLog(g.ctx);
  assert.deepEqual(week.counts, { approve: 1 });
  assert.equal(week.debt.length, 0);
  const month = decisionLog(g.ctx, { since: "30d" });
  assert.deepEqual(month.counts, { approve: 2, reject: 1, revise: 1 });
  assert.equal(month.debt.length, 1);
  assert.equal(month.debt[0]!.deliverableRef, `worker-deliverable:${w2.worker}:1`);
  assert.equal(month.decisions[0]!.verb, "approve");
  assert.throws(() => decisionLog(g.ctx, { since: "soon" }), codeOf("bad-duration"));
});

test("the queue puts questions first, then failures, then unjudged ready versions", (t) => {
  const g = reviewGround(t);
  const ready = reviewWorker(t, g);
  const asking = reviewWorker(t, g);
  const judged = reviewWorker(t, g);
  publish(g, ready, { "src/app.txt": appWith({ 2: "two" }) });
  publish(g, judged, { "src/other.txt": "x\n" });
  approve(g.ctx, { target: judged.worker });
  wait(g.ctx, { worker: asking.worker, generation: 1, runToken: asking.runToken }, { question: "Go on?" });
  const queue = verdictQueue(g.ctx).map((c) => c.worker);
  assert.deepEqual(queue, [asking.worker, ready.worker]);
  const lines = formatVerdictCard(verdictCard(g.ctx, ready.worker)).join("\n");
  assert.ok(lines.indexOf("Evidence") < lines.indexOf("Worker says"), "evidence comes before what the worker says");
  assert.match(lines, /1 file · \+1 −1 · 1 hunk/);
  assert.match(lines, /test: npm test: 3 pass/);
});

test("discard checks the confirmation itself: unconfirmed it is refused and the workspace keeps its live changes", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  writeFileSync(join(w.workspace, "src/other.txt"), "live edit\n");
  assert.throws(() => discard(g.ctx, { worker: w.worker }), { code: "discard-needs-confirmation" });
  assert.equal(readFileSync(join(w.workspace, "src/other.txt"), "utf8"), "live edit\n");
  assert.equal(decisionCount(g.ctx), 0);
  const d = discard(g.ctx, { worker: w.worker, confirmed: true });
  assert.equal(d.decision.verb, "discard");
  assert.equal(readFileSync(join(w.workspace, "src/other.txt"), "utf8"), "alpha\nbeta\ngamma\n");
});
