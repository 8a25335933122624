// Claim: the review side's SQL row sets agree with the domain's rules on a real ledger, over every decision history
// tried: the open versions are exactly those closureOf leaves open, and the queue's candidates exactly those queueRank
// ranks (with a version's judgment or revise as the old per-worker reads answered it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { deliverableId, deliverableRef } from "../../../src/domain/deliverables/refs.js";
import type { DecisionActor } from "../../../src/domain/review/approval.js";
import { queueRank } from "../../../src/domain/review/queue-rank.js";
import type { PersistedState } from "../../../src/domain/workers/lifecycle.js";
import { pointerOf } from "../../../src/engine/review/deliverables.js";
import { closureOf, judgmentOf, latestDecision } from "../../../src/engine/review/target.js";
import { insertDecision } from "../../../src/ledger/review/decisions.js";
import { pendingVersionRows, queueCandidates } from "../../../src/ledger/review/review-rows.js";
import { workersOf } from "../../../src/ledger/workers/fleet-reads.js";
import { openQuestionCounts, insertQuestion } from "../../../src/ledger/workers/questions.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { insertShellWorker, workLedger } from "../../support/work-ledger.js";

type Step = [verb: string, actor?: DecisionActor, version?: number];

/** Decision histories on a worker's current version (v2 unless a step names another), oldest first. */
const HISTORIES: Step[][] = [
  [],
  [["approve"]],
  [["approve", "system"]],
  [["reject"]],
  [["reject", "system"]],
  [["reject"], ["approve"]],
  [["approve"], ["reject"]],
  [["promote"]],
  [["promote", "system"]],
  [["approve"], ["promote"], ["reject"]],
  [["combine", "system"]],
  [["combine", "system"], ["approve"]],
  [["reject"], ["combine", "system"], ["approve"]],
  [["not-chosen"]],
  [["reject"], ["not-chosen"]],
  [["revise"]],
  [["reject"], ["revise"]],
  [["reject", "human", 1]],
  [["promote", "human", 1], ["approve"]],
  [["use"]],
];
const STATES: PersistedState[] = ["ready", "failed", "ended", "active", "idle", "needs_input"];

test("pending versions and queue candidates read in SQL are the ones the domain's rules pick", (t) => {
  const { ctx } = workLedger(t);
  const root = ctx.projectRoot();
  ctx.commands.run("test.fleet", {}, (tx) => {
    let n = 0;
    const add = (projectRoot: string) => insertShellWorker(tx, projectRoot, `t${n++}`);
    for (const [h, history] of HISTORIES.entries()) {
      for (const [s, state] of STATES.entries()) {
        const id = add(root);
        const version = { id: deliverableId(id), version: 2, ref: deliverableRef(id, 2) };
        const reviewed = (h + s) % 2 === 0 ? tx.now : null;
        updateWorker(tx, id, {
          state,
          reviewedAt: reviewed,
          deliverableId: version.id,
          deliverableVersion: 2,
          deliverableRef: version.ref,
        });
        for (const [verb, actor = "human", v = 2] of history)
          insertDecision(tx, {
            actor,
            verb,
            worker: id,
            deliverable: { id: version.id, version: v, ref: deliverableRef(id, v) },
          });
        if ((h * STATES.length + s) % 7 === 0)
          insertQuestion(tx, { worker: id, generation: 1, text: "which?", options: ["a", "b"] });
      }
    }
    // Without a version (one with a question, one failed), one deleted, one of another project.
    const bare = [add(root), add(root), add(root)];
    updateWorker(tx, bare[0]!, { state: "ended" });
    insertQuestion(tx, { worker: bare[0]!, generation: 1, text: "which?", options: [] });
    updateWorker(tx, bare[1]!, { state: "failed" });
    updateWorker(tx, bare[2]!, { state: "ready", deletedAt: tx.now });
    const other = add(`${root}-other`);
    updateWorker(tx, other, { state: "failed" });
  });

  const rows = workersOf(ctx.db, { projectRoot: root });
  const pending = rows.filter((r) => pointerOf(r) && closureOf(ctx.db, pointerOf(r)!) === undefined).map((r) => r.id);
  assert.deepEqual(
    pendingVersionRows(ctx.db, root).map((r) => r.id),
    pending,
  );
  assert.ok(pending.length > 0 && pending.length < rows.length, "some versions are open and some closed");

  const questions = openQuestionCounts(ctx.db);
  const ranked = rows.flatMap((row) => {
    const pointer = pointerOf(row);
    const acted = pointer
      ? (judgmentOf(ctx.db, pointer) ?? latestDecision(ctx.db, pointer.ref, ["revise"]))
      : undefined;
    const rank = queueRank({
      openQuestions: questions.get(row.id) ?? 0,
      state: row.state,
      reviewedAt: row.reviewedAt,
      hasVersion: Boolean(pointer),
      judged: Boolean(acted),
    });
    return rank === undefined ? [] : [`${row.id}:${rank}`];
  });
  const candidates = queueCandidates(ctx.db, root).flatMap((c) => {
    const rank = queueRank({
      openQuestions: c.openQuestions,
      state: c.row.state,
      reviewedAt: c.row.reviewedAt,
      hasVersion: Boolean(pointerOf(c.row)),
      judged: c.acted,
    });
    return [`${c.row.id}:${rank ?? "none"}`];
  });
  assert.deepEqual(candidates, ranked);
  assert.ok(ranked.length > 0 && ranked.length < rows.length, "some workers are queued and some are not");
});
