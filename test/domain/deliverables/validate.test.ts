// A sidecar validates only when its file name, schema, types and evidence agree; every mismatch is named.

import { test } from "node:test";
import assert from "node:assert/strict";
import { validateDeliverable } from "../../../src/domain/deliverables/validate.js";
import type { WorkerDeliverable } from "../../../src/domain/deliverables/deliverable.js";

export function sampleDeliverable(workerId = "w1", version = 2): WorkerDeliverable {
  return {
    schemaVersion: 1,
    id: `worker-deliverable:${workerId}`,
    version,
    ref: `worker-deliverable:${workerId}:${version}`,
    createdAt: "2026-01-01T00:00:00.000Z",
    toolCallId: "call-1",
    source: { workerId, task: "t", kind: "general", generation: 1 },
    outcome: "completed",
    summary: "s",
    body: "b",
    evidence: [{ kind: "test", text: "npm test" }],
    recommendations: ["merge"],
    items: [{ item: "t1", outcome: "done", body: "ok" }],
    changeSet: {
      ref: `worker-changes:${workerId}:${version}`,
      base: "abc",
      files: [{ path: "a", additions: 1, deletions: 0 }],
      stat: "",
      hunks: 1,
      patch: "",
    },
  };
}

test("a consistent sidecar validates", () => {
  const r = validateDeliverable(sampleDeliverable(), { workerId: "w1", version: 2 });
  assert.equal(r.ok, true);
});

test("a sidecar under another worker's or version's file name is invalid, with every mismatch named", () => {
  const r = validateDeliverable(sampleDeliverable("w1", 2), { workerId: "w2", version: 3 });
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.issues.some((i) => i.includes("does not belong to w2")));
  assert.ok(!r.ok && r.issues.some((i) => i.includes("does not match file v3.json")));
  assert.ok(!r.ok && r.issues.some((i) => i.includes("source.workerId")));
  assert.ok(!r.ok && r.issues.some((i) => i.includes("changeSet.ref")));
});

test("an unknown schema version, bad types and bad evidence kinds are reported", () => {
  assert.deepEqual(validateDeliverable({ ...sampleDeliverable(), schemaVersion: 9 }, { workerId: "w1", version: 2 }), {
    ok: false,
    issues: ["schemaVersion 9 is not supported (expected 1)"],
  });
  const bad = { ...sampleDeliverable(), body: 5, outcome: "done", evidence: [{ kind: "vibes", text: "x" }] };
  const r = validateDeliverable(bad, { workerId: "w1", version: 2 });
  assert.ok(!r.ok && r.issues.length === 3, JSON.stringify(r));
  assert.deepEqual(validateDeliverable("nope", { workerId: "w1", version: 2 }), {
    ok: false,
    issues: ["not a JSON object"],
  });
});

test("a null change set (read-only worker) is valid; a malformed one is not", () => {
  assert.equal(
    validateDeliverable({ ...sampleDeliverable(), changeSet: null }, { workerId: "w1", version: 2 }).ok,
    true,
  );
  const r = validateDeliverable(
    { ...sampleDeliverable(), changeSet: { ref: "worker-changes:w1:2", files: "x" } },
    { workerId: "w1", version: 2 },
  );
  assert.equal(r.ok, false);
});
