// The choice rule: a choice holds only to the comparison shown — never shown, a candidate moved since, another version
// of the chosen worker, other bytes, or a group already chosen are each refused with their own code.

import { test } from "node:test";
import assert from "node:assert/strict";
import { choiceRefusal, type ChoiceInput } from "../../../src/domain/groups/choice.js";

const base: ChoiceInput = {
  group: "b1",
  ref: "worker-deliverable:w1:1",
  worker: "w1",
  sha256: "aaa",
  candidates: [
    { worker: "w1", ref: "worker-deliverable:w1:1" },
    { worker: "w2", ref: "worker-deliverable:w2:1" },
    { worker: "w3", ref: null },
  ],
  shown: [
    { worker: "w1", ref: "worker-deliverable:w1:1", sha256: "aaa" },
    { worker: "w2", ref: "worker-deliverable:w2:1", sha256: "bbb" },
    { worker: "w3", ref: null, sha256: null },
  ],
  chosen: null,
};

const code = (input: Partial<ChoiceInput>) => choiceRefusal({ ...base, ...input })?.code;

test("the version shown, with nothing moved since, may be chosen", () => {
  assert.equal(choiceRefusal(base), undefined);
});

test("each way the comparison no longer holds is its own refusal", () => {
  assert.equal(code({ shown: null }), "comparison-not-shown");
  assert.equal(code({ chosen: "worker-deliverable:w2:1" }), "group-already-chosen");
  assert.equal(code({ worker: "w9", ref: "worker-deliverable:w9:1" }), "not-a-candidate");
  assert.equal(code({ sha256: "changed" }), "deliverable-tampered");
  assert.equal(code({ ref: "worker-deliverable:w1:2" }), "not-shown-version");
  const moved = choiceRefusal({
    ...base,
    candidates: [base.candidates[0]!, { worker: "w2", ref: "worker-deliverable:w2:2" }, base.candidates[2]!],
  });
  assert.equal(moved?.code, "candidate-moved-since-shown");
  assert.equal(
    moved?.message,
    "w2 published worker-deliverable:w2:2 after the comparison of b1 was shown to you (it showed worker-deliverable:w2:1); nothing changed",
  );
  assert.equal(
    code({ candidates: [base.candidates[0]!, base.candidates[1]!, { worker: "w3", ref: "worker-deliverable:w3:1" }] }),
    "candidate-moved-since-shown",
    "a candidate that was still working when shown and published since moves the comparison too",
  );
});
