// The review pulse's SQL and the domain agree on which judgments count, for every verb and actor, on a real ledger;
// decision debt uses the same rule (the system's approve leaves a version unjudged, anyone's reject judges it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { countsAsJudgment, DECISION_ACTORS } from "../../../src/domain/review/approval.js";
import { COUNTED_JUDGMENT_SQL, insertDecision, recordDecisionDebt } from "../../../src/ledger/review/decisions.js";
import { workLedger } from "../../support/work-ledger.js";

test("COUNTED_JUDGMENT_SQL selects exactly the decisions countsAsJudgment counts", (t) => {
  const { ctx } = workLedger(t);
  // A parent agent records no judgment at all (assertActorMayRecord); every other actor is tried on every verb.
  const pairs = ["approve", "reject", "promote", "combine", "revise", "use"].flatMap((verb) =>
    DECISION_ACTORS.filter((a) => a !== "parent-agent").map((actor) => ({ verb, actor })),
  );
  const ids = ctx.commands.run("test.decisions", null, (tx) =>
    pairs.map((p) => insertDecision(tx, { ...p, worker: "w1" }).id),
  ).result;
  const counted = new Set(
    (ctx.db.prepare(`SELECT id FROM decisions d WHERE ${COUNTED_JUDGMENT_SQL}`).all() as { id: string }[]).map(
      (r) => r.id,
    ),
  );
  assert.deepEqual(
    pairs.filter((_, i) => counted.has(ids[i]!)),
    pairs.filter((p) => countsAsJudgment(p)),
  );
});

test("decision debt: a version only the system approved is unjudged; one the system rejected is judged", (t) => {
  const { ctx } = workLedger(t);
  const worker = (ref: string) => ({ id: "w1", state: "ready", deliverableRef: ref });
  const pointer = (v: number) => ({ id: "worker-deliverable:w1", version: v, ref: `worker-deliverable:w1:${v}` });
  const debts = ctx.commands.run("test.debt", null, (tx) => {
    insertDecision(tx, { actor: "system", verb: "approve", worker: "w1", deliverable: pointer(1) });
    insertDecision(tx, { actor: "system", verb: "reject", worker: "w1", deliverable: pointer(2) });
    return [recordDecisionDebt(tx, worker(pointer(1).ref)), recordDecisionDebt(tx, worker(pointer(2).ref))];
  }).result;
  assert.deepEqual(debts, [true, false]);
});
