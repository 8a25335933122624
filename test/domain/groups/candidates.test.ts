// The pure rules of a best-of group: ids b<N>, lists cycled over N candidates (`-` unset), a list longer than N or
// a count outside 2..10 refused with a usage error naming the flag.

import { test } from "node:test";
import assert from "node:assert/strict";
import { DocketError } from "../../../src/domain/errors.js";
import { MAX_CANDIDATES, parseCandidateList, resolveCandidateSpecs } from "../../../src/domain/groups/candidates.js";
import { formatGroupId, isGroupId, parseGroupId } from "../../../src/domain/groups/group-ids.js";

const usage = (code: string, message: RegExp) => (e: unknown) =>
  e instanceof DocketError && e.category === "usage" && e.code === code && message.test(e.message);

test("each list cycles over the candidates in order, and - leaves that candidate's value unset", () => {
  const specs = resolveCandidateSpecs({
    count: 5,
    agents: ["pi", "claude"],
    models: ["a/x", "-", "b/y"],
    scripted: ["s1.json"],
  });
  assert.deepEqual(specs, [
    { position: 1, agent: "pi", model: "a/x", scripted: "s1.json" },
    { position: 2, agent: "claude", scripted: "s1.json" },
    { position: 3, agent: "pi", model: "b/y", scripted: "s1.json" },
    { position: 4, agent: "claude", model: "a/x", scripted: "s1.json" },
    { position: 5, agent: "pi", scripted: "s1.json" },
  ]);
  assert.deepEqual(resolveCandidateSpecs({ count: 2 }), [{ position: 1 }, { position: 2 }], "no lists: defaults");
});

test("a count outside 2..10 and a list longer than the count are refused, naming the flag", () => {
  assert.throws(
    () => resolveCandidateSpecs({ count: 1 }),
    usage("bad-flag", /^--best-of takes .* from 2 to 10; got 1$/),
  );
  assert.throws(() => resolveCandidateSpecs({ count: MAX_CANDIDATES + 1 }), usage("bad-flag", /got 11$/));
  assert.throws(
    () => resolveCandidateSpecs({ count: 2, models: ["a/x", "b/y", "c/z"] }),
    usage("bad-flag", /^--model lists 3 values for 2 candidates; the extra ones would never run$/),
  );
});

test("a comma list is split and trimmed; an empty entry is refused with its position", () => {
  assert.deepEqual(parseCandidateList("--agent", "pi, claude ,-"), ["pi", "claude", "-"]);
  assert.throws(
    () => parseCandidateList("--scripted", "a.json,,b.json"),
    usage("bad-flag", /^--scripted has an empty entry at position 2 in "a\.json,,b\.json"$/),
  );
});

test("group ids are exactly b<N>; what only resembles one is refused with the id it resembles", () => {
  assert.equal(formatGroupId(7), "b7");
  assert.equal(isGroupId("b7"), true);
  assert.equal(isGroupId("b07"), false);
  assert.equal(parseGroupId(" b12 "), "b12");
  assert.throws(
    () => parseGroupId("B3"),
    (e: unknown) => e instanceof DocketError && e.code === "bad-group-id" && e.hint === "did you mean b3?",
  );
  assert.throws(
    () => parseGroupId("w3"),
    (e: unknown) => e instanceof DocketError && e.code === "bad-group-id" && /not a group id/.test(e.message),
  );
});
