import { test } from "node:test";
import assert from "node:assert/strict";
import { isStaleNotice, type NoticeFacts } from "../../../src/domain/workers/stale-notice.js";

// Which notices a parent folds instead of replaying: only those whose subject was settled before anyone saw them.

const base: NoticeFacts = {
  kind: "ready",
  workerDeleted: false,
  versionSettled: false,
  openQuestions: 0,
  workerState: "ready",
  reviewed: false,
};

test("a notice about a deleted worker is stale whatever it says", () => {
  for (const kind of ["ready", "question", "failed", "blocked", "outcome"])
    assert.equal(isStaleNotice({ ...base, kind, workerDeleted: true }), true, kind);
});

test("a ready notice is stale once its version was judged or replaced, a question once none is open, a failure once respawned or reviewed", () => {
  assert.equal(isStaleNotice(base), false);
  assert.equal(isStaleNotice({ ...base, versionSettled: true }), true);
  assert.equal(isStaleNotice({ ...base, kind: "question", openQuestions: 1, workerState: "needs_input" }), false);
  assert.equal(isStaleNotice({ ...base, kind: "question", openQuestions: 0, workerState: "active" }), true);
  assert.equal(isStaleNotice({ ...base, kind: "failed", workerState: "failed" }), false);
  assert.equal(isStaleNotice({ ...base, kind: "failed", workerState: "starting" }), true);
  assert.equal(isStaleNotice({ ...base, kind: "failed", workerState: "failed", reviewed: true }), true);
});

test("item reports (blocked, outcome) stand until dismissed", () => {
  assert.equal(
    isStaleNotice({ ...base, kind: "blocked", versionSettled: true, workerState: "ended", reviewed: true }),
    false,
  );
  assert.equal(isStaleNotice({ ...base, kind: "outcome", versionSettled: true }), false);
});

test("a stuck or refused notice is old news once its worker reached an end", () => {
  const facts = { workerDeleted: false, versionSettled: false, openQuestions: 0, reviewed: false };
  for (const kind of ["stuck", "refused"]) {
    assert.equal(isStaleNotice({ ...facts, kind, workerState: "active" }), false);
    assert.equal(isStaleNotice({ ...facts, kind, workerState: "idle" }), false);
    assert.equal(isStaleNotice({ ...facts, kind, workerState: "ready" }), true);
    assert.equal(isStaleNotice({ ...facts, kind, workerState: "failed" }), true);
  }
});
