// Fixtures for DeliverableStore tests: worker versions claimed as real sidecars, decisions as real ledger rows,
// and records in the anchor tool's own schema-1 shape.

import { changeSetRef, deliverableId, deliverableRef } from "../../src/domain/deliverables/refs.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EngineContext } from "../../src/engine/context.js";
import type { HomeLayout } from "../../src/files/home.js";
import type { DeliverablePointer, WorkerDeliverable } from "../../src/domain/deliverables/deliverable.js";
import { claimDeliverable } from "../../src/files/workers/deliverables.js";
import { insertDecision } from "../../src/ledger/review/decisions.js";
import { updateWorker } from "../../src/ledger/workers/workers.js";
import { addWorker } from "./work-ledger.js";

export const PATCH = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n";

/** Claims `v<version>.json` for `worker` and points the worker row at it (as an accepted docket_done would). */
export function publishVersion(
  ctx: EngineContext,
  worker: string,
  version: number,
  body = `Body of v${version}\r\n  trailing  \nünïcode ✓\n`,
): DeliverablePointer {
  const d: WorkerDeliverable = {
    schemaVersion: 1,
    id: deliverableId(worker),
    version,
    ref: deliverableRef(worker, version),
    createdAt: "2026-01-01T00:00:00.000Z",
    toolCallId: `call-${version}`,
    source: { workerId: worker, task: "test worker", kind: "general", generation: 1 },
    outcome: "proposal",
    summary: `summary v${version}`,
    body,
    evidence: [{ kind: "test", text: "npm test: 12 passed" }],
    recommendations: ["ship it"],
    items: [],
    changeSet: {
      ref: changeSetRef(worker, version),
      base: "abc123",
      files: [{ path: "a.txt", additions: 1, deletions: 1 }],
      stat: " a.txt | 2 +-",
      hunks: 1,
      patch: PATCH,
    },
  };
  if (!claimDeliverable(ctx.home, worker, version, d)) throw new Error(`v${version} already claimed`);
  const pointer = { id: d.id, version, ref: d.ref };
  ctx.commands.run("test.pointer", pointer, (tx) =>
    updateWorker(tx, worker, {
      deliverableId: pointer.id,
      deliverableVersion: version,
      deliverableRef: pointer.ref,
      state: "ready",
    }),
  );
  return pointer;
}

export function decide(
  ctx: EngineContext,
  worker: string,
  pointer: DeliverablePointer,
  verb: string,
  options: { note?: string; actor?: "human" | "parent-agent" } = {},
): string {
  return ctx.commands.run("test.decide", { worker, pointer, verb, options }, (tx) =>
    insertDecision(tx, {
      actor: options.actor ?? "human",
      verb,
      worker,
      deliverable: pointer,
      note: options.note ?? null,
    }),
  ).result.id;
}

/** A worker whose current v1 is approved by a human (with one review note on it). */
export function approvedWorker(ctx: EngineContext): {
  worker: string;
  pointer: DeliverablePointer;
  decisionId: string;
} {
  const { worker } = addWorker(ctx);
  const pointer = publishVersion(ctx, worker, 1);
  decide(ctx, worker, pointer, "revise", { note: "tighten the wording" });
  const decisionId = decide(ctx, worker, pointer, "approve");
  return { worker, pointer, decisionId };
}

/** A record exactly as pi-docket 0.8's `/docket save` writes it (schemaVersion 1), worker-backed. */
export function anchorWorkerRecord(id: string, version = 2): Record<string, unknown> {
  const pointer = {
    id: "worker-deliverable:fix-auth-bug-a1b2",
    version,
    ref: `worker-deliverable:fix-auth-bug-a1b2:${version}`,
  };
  return {
    schemaVersion: 1,
    id,
    version,
    ref: `deliverable:${id}:${version}`,
    createdAt: "2026-11-01T10:00:00.000Z",
    savedAt: "2026-11-01T10:05:00.000Z",
    body: "## Plan\n1. Fix the token check files: src/auth.ts\n",
    summary: "Fix the token check",
    outcome: "proposal",
    evidence: ["unit tests pass"],
    recommendations: ["merge after review"],
    refs: [{ displayId: "r3", ref: "artifact:r3", kind: "response", title: "answer" }],
    changeSet: {
      ref: "worker-changes:fix-auth-bug-a1b2:2",
      files: [{ path: "src/auth.ts", additions: 3 }],
      stat: " src/auth.ts | 3 +++",
      patch: PATCH,
      hunkCount: 1,
    },
    source: {
      kind: "worker",
      workerDeliverable: pointer,
      workerId: "fix-auth-bug-a1b2",
      workerLabel: "w4",
      task: "fix auth bug",
      createdAt: "2026-11-01T10:00:00.000Z",
      workerGeneration: version,
      model: "anthropic/claude",
      thinking: "high",
    },
    reviewNotes: [{ text: "cover the expiry case", createdAt: "2026-11-01T10:01:00.000Z", decisionId: "d-17" }],
    approval: {
      kind: "worker",
      decisionId: "d-18",
      decidedAt: "2026-11-01T10:04:00.000Z",
      verdict: "accept",
      workerDeliverable: pointer,
      decision: { id: "d-18", verdict: "accept", deliverableRef: pointer.ref },
    },
  };
}

/** A parent-authored anchor record (schemaVersion 1, always v1). */
export function anchorParentRecord(id: string): Record<string, unknown> {
  return {
    schemaVersion: 1,
    id,
    version: 1,
    ref: `deliverable:${id}:1`,
    createdAt: "2026-11-02T09:00:00.000Z",
    savedAt: "2026-11-02T09:00:00.000Z",
    body: "Findings: the cache is never invalidated.\n",
    summary: "Findings: the cache is never invalidated.",
    outcome: "findings",
    evidence: [],
    recommendations: [],
    refs: [],
    source: {
      kind: "parent",
      createdAt: "2026-11-02T09:00:00.000Z",
      cwd: "/repo",
      selectedArtifact: { ref: "artifact:c2" },
    },
    reviewNotes: [],
    approval: {
      kind: "human",
      decisionId: `human-authorship:${id}`,
      decidedAt: "2026-11-02T09:00:00.000Z",
      reason: "parent-authorship",
    },
  };
}

/** The anchor tool's checkpoint layout: bundles, their artifacts, its index and its event log. */
export function writeLegacyBundles(home: HomeLayout): void {
  const dir = join(home.root, "checkpoints");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "ckpt-auth.md"), "# Auth checkpoint\n\nWhere we left the auth work.\n");
  writeFileSync(
    join(dir, "ckpt-auth.artifacts.json"),
    JSON.stringify([{ id: "r1", kind: "response", text: "answer" }]),
  );
  writeFileSync(join(dir, "ckpt-old.md"), "old notes\n");
  writeFileSync(join(dir, "ckpt-gone.md"), "purged but file left behind\n");
  writeFileSync(join(dir, ".ckpt-hidden.md"), "hidden\n");
  writeFileSync(join(dir, "bad name.md"), "unsafe\n");
  writeFileSync(
    join(dir, "index.json"),
    JSON.stringify({
      checkpoints: [
        { id: "ckpt-auth", title: "Auth work", createdAt: "2026-10-02T00:00:00.000Z" },
        { id: "ckpt-old", createdAt: "2026-09-01T00:00:00.000Z" },
      ],
    }),
  );
  writeFileSync(
    join(dir, "events.ndjson"),
    [
      JSON.stringify({ type: "checkpoint_saved", id: "ckpt-old" }),
      JSON.stringify({ type: "checkpoint_consumed", id: "ckpt-old" }),
      "{torn",
      JSON.stringify({ type: "checkpoint_purged", id: "ckpt-gone" }),
    ].join("\n"),
  );
}
