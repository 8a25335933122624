// Which judgments count, said once: a reject by anyone, an approve or promote only by a human; the card's words and
// the one "not approved" refusal come from the same place, whichever verb was refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  countsAsJudgment,
  DECISION_ACTORS,
  formatJudgment,
  latestJudgment,
  notApproved,
  TERMINAL_VERBS,
  type DecisionRecord,
} from "../../../src/domain/review/approval.js";

const V1 = { id: "worker-deliverable:w1", version: 1, ref: "worker-deliverable:w1:1" };
let seq = 0;
const decision = (verb: string, actor: DecisionRecord["actor"] = "human"): DecisionRecord => ({
  id: `dc${++seq}`,
  at: "2026-11-30T08:00:00.000Z",
  actor,
  verb,
  worker: "w1",
  deliverableId: V1.id,
  deliverableVersion: V1.version,
  deliverableRef: V1.ref,
});

test("a parent agent or the system can never approve or promote, but anyone's reject or combine counts", () => {
  const counted = TERMINAL_VERBS.flatMap((verb) =>
    DECISION_ACTORS.filter((actor) => countsAsJudgment({ verb, actor })).map((actor) => `${verb}:${actor}`),
  );
  assert.deepEqual(counted, [
    "approve:human",
    "reject:human",
    "reject:parent-agent",
    "reject:system",
    "promote:human",
    "combine:human",
    "combine:parent-agent",
    "combine:system",
    "not-chosen:human",
  ]);
  for (const verb of ["revise", "answer", "use", "save", "discard"])
    assert.equal(countsAsJudgment({ verb, actor: "human" }), false, verb);
});

test("the latest judgment skips what does not count: a parent agent's approve after a human reject leaves it rejected", () => {
  const reject = decision("reject");
  assert.equal(
    latestJudgment([decision("approve"), reject, decision("approve", "parent-agent"), decision("revise")], V1),
    reject,
  );
  assert.equal(latestJudgment([decision("approve", "system")], V1), undefined);
});

test("the card's judgment line: tampering, then promotion, then approval, then a reject, else not judged", () => {
  assert.equal(formatJudgment({ hasVersion: false }), "no deliverable yet");
  assert.equal(
    formatJudgment({ hasVersion: true, tamperedApproval: { id: "dc1" }, approval: { id: "dc1", at: "t" } }),
    "approved (dc1) but its sidecar changed since: the approval no longer holds",
  );
  assert.equal(
    formatJudgment({ hasVersion: true, promotion: { id: "dc3" }, approval: { id: "dc1", at: "t" } }),
    "promoted (dc3)",
  );
  assert.equal(
    formatJudgment({ hasVersion: true, approval: { id: "dc1", at: "2026-11-30T08:00:00.000Z" } }),
    "approved (dc1, 2026-11-30T08:00:00.000Z)",
  );
  assert.equal(formatJudgment({ hasVersion: true, latest: { id: "dc2", verb: "reject" } }), "rejected (dc2)");
  assert.equal(
    formatJudgment({ hasVersion: true, latest: { id: "dc3", verb: "not-chosen" } }),
    "not chosen (dc3): another candidate of its group was",
  );
  assert.equal(formatJudgment({ hasVersion: true }), "not judged");
});

test("not approved is one code for promote, use and save, each naming the version and how to approve it", () => {
  const ref = V1.ref;
  const promote = notApproved({ verb: "promote", ref, worker: "w1", earlierApproved: [1, 2] });
  const use = notApproved({ verb: "use", ref, worker: "w1" });
  const save = notApproved({ verb: "save", ref, worker: "w1", rejectedBy: "dc4" });
  assert.deepEqual([promote.code, use.code, save.code], ["not-approved", "not-approved", "not-approved"]);
  assert.equal(
    promote.message,
    `${ref} is not approved (v1, v2 was approved, but an approval never carries over to another version); nothing changed`,
  );
  assert.equal(use.message, `Use needs an approved version: ${ref} is not approved; nothing changed`);
  assert.equal(save.message, `${ref} is not approved for saving: it was rejected (dc4)`);
  assert.equal(
    notApproved({ verb: "save", ref, worker: "w1" }).message,
    `${ref} is not approved for saving: it has no approval on this exact version`,
  );
  for (const e of [promote, use, save]) assert.match(e.hint ?? "", /`docket approve /);
});
