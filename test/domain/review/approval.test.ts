// Generation-bound approval: a verdict binds one exact {id, version, ref}, and only a human's counts
// (docs/decisions/immutable-deliverables.md). The latest terminal judgment decides; nothing ever widens an approval to
// another version.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { DecisionRecord } from "../../../src/domain/review/approval.js";
import {
  approvalFor,
  assertActorMayRecord,
  closureOf,
  isApproved,
  TERMINAL_VERBS,
} from "../../../src/domain/review/approval.js";
import { isDocketError } from "../../../src/domain/errors.js";

const V1 = { id: "worker-deliverable:w1", version: 1, ref: "worker-deliverable:w1:1" };
const V2 = { id: "worker-deliverable:w1", version: 2, ref: "worker-deliverable:w1:2" };

let seq = 0;
function decision(
  verb: string,
  pointer: { id: string; version: number; ref: string },
  extra: Partial<DecisionRecord> = {},
): DecisionRecord {
  seq++;
  return {
    id: `d${seq}`,
    at: `2026-11-30T08:00:${String(seq).padStart(2, "0")}.000Z`,
    actor: "human",
    verb,
    worker: "w1",
    deliverableId: pointer.id,
    deliverableVersion: pointer.version,
    deliverableRef: pointer.ref,
    ...extra,
  };
}

test("a human approve of the exact version approves it and is returned", () => {
  const d = decision("approve", V1);
  assert.equal(approvalFor([d], V1), d);
  assert.equal(isApproved([d], V1), true);
});

test("approving v1 never approves v2 when v2 appears", () => {
  const decisions = [decision("approve", V1)];
  assert.equal(approvalFor(decisions, V2), undefined);
  assert.equal(isApproved(decisions, V1), true);
});

test("a later reject of the same version supersedes an earlier approve, and a later approve restores it", () => {
  const approve = decision("approve", V1);
  const reject = decision("reject", V1);
  assert.equal(approvalFor([approve, reject], V1), undefined);
  const again = decision("approve", V1);
  assert.equal(approvalFor([approve, reject, again], V1), again);
});

test("an approval by the parent agent never counts, and it never revokes a human approval either", () => {
  const agent = decision("approve", V1, { actor: "parent-agent" });
  assert.equal(approvalFor([agent], V1), undefined);
  assert.equal(approvalFor([decision("approve", V1, { actor: "system" })], V1), undefined);
  const human = decision("approve", V1);
  assert.equal(approvalFor([human, decision("approve", V1, { actor: "parent-agent" })], V1), human);
});

test("a reject by any actor revokes", () => {
  assert.equal(
    approvalFor([decision("approve", V1), decision("reject", V1, { actor: "parent-agent" })], V1),
    undefined,
  );
  assert.equal(approvalFor([decision("approve", V1), decision("reject", V1, { actor: "system" })], V1), undefined);
});

test("a human promote counts as approval of that version (promote --approve included)", () => {
  const promote = decision("promote", V2);
  assert.equal(approvalFor([promote], V2), promote);
  assert.equal(approvalFor([decision("promote", V2, { actor: "parent-agent" })], V2), undefined);
});

test("non-terminal verbs neither grant nor revoke approval", () => {
  const approve = decision("approve", V1);
  const later = ["revise", "answer", "use", "save", "discard-note"].map((v) => decision(v, V1));
  assert.equal(approvalFor([approve, ...later], V1), approve);
  assert.equal(approvalFor(later, V1), undefined);
  assert.deepEqual([...TERMINAL_VERBS], ["approve", "reject", "promote", "combine", "not-chosen"]);
});

test("a version closed as combined is settled and never approved, even after a human approval of it", () => {
  const approve = decision("approve", V1);
  assert.equal(approvalFor([approve, decision("combine", V1)], V1), undefined);
  assert.equal(approvalFor([decision("combine", V1)], V1), undefined);
});

test("a parent agent may record only a consult's answer or escalation; every other verb is refused, so it can never approve", () => {
  for (const verb of ["answer", "escalate"]) assert.doesNotThrow(() => assertActorMayRecord("parent-agent", verb));
  for (const verb of ["approve", "promote", "reject", "revise", "combine", "use", "save"]) {
    assert.throws(
      () => assertActorMayRecord("parent-agent", verb),
      (e: unknown) => isDocketError(e) && e.code === "parent-agent-cannot-judge" && e.message.includes(`not ${verb}`),
    );
  }
  assert.doesNotThrow(() => assertActorMayRecord("human", "approve"));
  // Even a parent-agent answer row that names a version never approves it.
  assert.equal(
    approvalFor(
      [decision("answer", V1, { actor: "parent-agent" }), decision("escalate", V1, { actor: "parent-agent" })],
      V1,
    ),
    undefined,
  );
});

test("the id, the version and the ref must all match exactly", () => {
  assert.equal(approvalFor([decision("approve", { ...V1, ref: "worker-deliverable:w1:9" })], V1), undefined);
  assert.equal(approvalFor([decision("approve", { ...V1, id: "worker-deliverable:w2" })], V1), undefined);
  assert.equal(approvalFor([decision("approve", { ...V1, version: 2 })], V1), undefined);
  const noPointer: DecisionRecord = {
    id: "dx",
    at: "2026-11-30T09:00:00.000Z",
    actor: "human",
    verb: "approve",
    worker: "w1",
  };
  assert.equal(approvalFor([noPointer], V1), undefined);
});

test("the latest decision is the last in ledger order, even when the clock stepped backwards", () => {
  const approve = { ...decision("approve", V1), at: "2026-11-30T10:00:00.000Z" };
  const reject = { ...decision("reject", V1), at: "2026-11-30T09:00:00.000Z" };
  assert.equal(approvalFor([approve, reject], V1), undefined);
  assert.equal(approvalFor([reject, approve], V1), approve);
});

test("a reject of v1 does not touch v2's approval", () => {
  const v2 = decision("approve", V2);
  assert.equal(approvalFor([v2, decision("reject", V1)], V2), v2);
});

test("a version not chosen in its group is judged yet neither approved nor closed: a later approval still lands it", () => {
  const notChosen = decision("not-chosen", V1);
  assert.equal(approvalFor([decision("approve", V1), notChosen], V1), undefined, "the latest judgment decides");
  assert.equal(closureOf([notChosen], V1), undefined, "still open: promote --approve lands it later");
  const approve = decision("approve", V1);
  assert.equal(approvalFor([notChosen, approve], V1), approve);
});
