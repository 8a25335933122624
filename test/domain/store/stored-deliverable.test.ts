// Stored deliverables on plain data: safe deterministic ids, refs, summaries, validation and the schema upgrade chain.

import { parseStoreName, storedRef } from "../../../src/domain/deliverables/refs.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  formatHumanStoredId,
  formatWorkerStoredId,
  isSafeStoredId,
  resolveSummary,
  storedDeliverableIssues,
  type StoredDeliverable,
} from "../../../src/domain/store/stored-deliverable.js";
import { classifyStoredRecord, UPGRADE_CHAIN } from "../../../src/domain/store/stored-upgrade.js";
import { anchorParentRecord, anchorWorkerRecord } from "../../support/stored.js";

function humanRecord(id = "human-20260101000000000-0123456789ab"): StoredDeliverable {
  return {
    schemaVersion: 2,
    id,
    version: 1,
    ref: storedRef(id, 1),
    createdAt: "2026-01-01T00:00:00.000Z",
    savedAt: "2026-01-01T00:00:00.000Z",
    body: "text\n",
    summary: "text",
    outcome: "findings",
    evidence: [],
    recommendations: [],
    refs: [],
    items: [],
    changeSet: null,
    source: { kind: "human", createdAt: "2026-01-01T00:00:00.000Z" },
    reviewNotes: [],
    approval: {
      kind: "human",
      decisionId: `human-authorship:${id}`,
      decidedAt: "2026-01-01T00:00:00.000Z",
      reason: "human-authorship",
    },
    handoffProvenance: null,
  };
}

test("worker-backed ids are deterministic, safe and capped at 96 characters", () => {
  const id = formatWorkerStoredId("w12", "ABCDEF0123456789");
  assert.equal(id, "worker-w12-abcdef0123");
  assert.equal(formatWorkerStoredId("w12", "ABCDEF0123456789"), id);
  const long = formatWorkerStoredId("x".repeat(200), "0".repeat(64));
  assert.ok(long.length <= 96 && isSafeStoredId(long));
  assert.ok(isSafeStoredId(formatWorkerStoredId("../../etc", "ff".repeat(5))));
});

test("human-authored ids carry the timestamp digits and 12 hex of entropy", () => {
  assert.equal(
    formatHumanStoredId("2026-11-30T08:03:05.935Z", "244A5A90011BFFFF"),
    "human-20261130080305935-244a5a90011b",
  );
});

test("unsafe ids and malformed refs are rejected before any path is built", () => {
  for (const bad of ["", ".hidden", "../x", "a/b", "-lead", "x".repeat(97), "a b", "a.b"])
    assert.equal(isSafeStoredId(bad), false, bad);
  assert.deepEqual(parseStoreName(" deliverable:human-1-ab:3"), {
    kind: "exact",
    id: "human-1-ab",
    version: 3,
    text: "deliverable:human-1-ab:3",
  });
  // Not an exact ref: a name the store matches by id or prefix only (where an unsafe one matches nothing).
  for (const bad of ["deliverable:../x:1", "deliverable:x:0"])
    assert.deepEqual(parseStoreName(bad), { kind: "name", text: bad });
  assert.deepEqual(
    [parseStoreName("last").kind, parseStoreName("d3").kind, parseStoreName("d0").kind],
    ["last", "slot", "name"],
  );
});

test("the summary defaults to the first non-empty line, heading marks kept as written, and is capped", () => {
  assert.equal(resolveSummary("\n\n  First line  \nsecond"), "First line");
  assert.equal(resolveSummary("body", " given "), "given");
  assert.equal(resolveSummary("y".repeat(300)).length, 200);
});

test("a valid human record has no issues", () => {
  assert.deepEqual(storedDeliverableIssues(humanRecord(), { id: humanRecord().id, version: 1 }), []);
});

test("validation names every failing invariant at once", () => {
  const r = {
    ...humanRecord(),
    version: 2,
    body: "  ",
    outcome: "shipped",
    approval: { kind: "human", decisionId: "human-authorship:other", decidedAt: "x", reason: "human-authorship" },
  };
  const issues = storedDeliverableIssues(r, { id: "elsewhere", version: 1 });
  for (const name of [
    "ref-matches-id-version",
    "id-matches-directory",
    "version-matches-file",
    "body-non-empty",
    "outcome",
    "version-for-human-source",
    "approval.decisionId",
    "approval.decidedAt",
  ]) {
    assert.ok(issues.includes(name), `${name} missing from ${issues.join(", ")}`);
  }
});

test("a worker record whose approval names another version is invalid: approval is never widened", () => {
  const upgraded = classifyStoredRecord(anchorWorkerRecord("worker-fix-auth-bug-a1b2-0123456789"), {
    id: "worker-fix-auth-bug-a1b2-0123456789",
    version: 2,
  });
  assert.equal(upgraded.status, "ok");
  const record = (upgraded as { record: StoredDeliverable }).record;
  const widened = {
    ...record,
    approval: {
      ...record.approval,
      deliverable: {
        id: "worker-deliverable:fix-auth-bug-a1b2",
        version: 1,
        ref: "worker-deliverable:fix-auth-bug-a1b2:1",
      },
    },
  };
  assert.deepEqual(storedDeliverableIssues(widened), ["approval.deliverable-matches-source"]);
  const humanApproval = { ...record, approval: humanRecord().approval };
  assert.deepEqual(storedDeliverableIssues(humanApproval), ["approval.kind"]);
});

test("an anchor-shape worker record (schemaVersion 1) upgrades through the registered chain", () => {
  const id = "worker-fix-auth-bug-a1b2-0123456789";
  const c = classifyStoredRecord(anchorWorkerRecord(id), { id, version: 2 });
  assert.equal(c.status, "ok");
  if (c.status !== "ok") return;
  assert.equal(c.upgradedFrom, 1);
  assert.equal(c.record.schemaVersion, 2);
  assert.equal(c.record.body, "## Plan\n1. Fix the token check files: src/auth.ts\n");
  assert.deepEqual(c.record.evidence, [{ kind: "note", text: "unit tests pass" }]);
  assert.equal(c.record.changeSet?.hunks, 1);
  assert.equal(c.record.changeSet?.patch.includes("+two"), true);
  assert.equal(c.record.approval.kind, "worker");
  assert.equal(c.record.approval.decisionId, "d-18");
  assert.equal(c.record.reviewNotes[0]!.text, "cover the expiry case");
  assert.equal(c.record.source.kind === "worker" && c.record.source.generation, 2);
  assert.deepEqual(
    UPGRADE_CHAIN.map((s) => s.from),
    [1],
  );
});

test("an anchor parent-authored record upgrades to a human-authored one", () => {
  const id = "parent-20261102090000-0123456789ab";
  const c = classifyStoredRecord(anchorParentRecord(id), { id, version: 1 });
  assert.equal(c.status, "ok");
  if (c.status !== "ok") return;
  assert.equal(c.record.source.kind, "human");
  assert.equal(c.record.approval.kind, "human");
  assert.equal(c.record.approval.decisionId, `human-authorship:${id}`);
});

test("a newer schema is unsupported with reason newer-schema, never guessed at", () => {
  const c = classifyStoredRecord({ ...humanRecord(), schemaVersion: 3 }, { id: humanRecord().id, version: 1 });
  assert.equal(c.status, "unsupported");
  assert.equal(c.status === "unsupported" && c.reason, "newer-schema");
});

test("an older schema with no registered step is unsupported with reason no-upgrade-path", () => {
  const id = "parent-x";
  const c = classifyStoredRecord(anchorParentRecord(id), { id, version: 1 }, []);
  assert.equal(c.status === "unsupported" && c.reason, "no-upgrade-path");
  const zero = classifyStoredRecord({ schemaVersion: 0 }, { id, version: 1 });
  assert.equal(zero.status === "unsupported" && zero.reason, "no-upgrade-path");
});

test("a JSON value that is not an object is corrupt, and broken invariants are invalid with their names", () => {
  assert.equal(classifyStoredRecord([1, 2], { id: "a", version: 1 }).status, "unsupported");
  const c = classifyStoredRecord({ ...humanRecord(), body: "" }, { id: humanRecord().id, version: 1 });
  assert.equal(c.status === "unsupported" && c.reason, "invalid");
  assert.match(c.status === "unsupported" ? c.detail : "", /body-non-empty/);
});
