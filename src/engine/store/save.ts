// Saving to the DeliverableStore: an exactly approved current worker version, or a human-authored v1 record.
// The file is claimed under the per-deliverable lock before the index command points at it; nothing is ever replaced
// (docs/decisions/deliverable-store.md).

import { storedRef } from "../../domain/deliverables/refs.js";
import { createHash, randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { approvalFor, latestJudgment, notApproved } from "../../domain/review/approval.js";
import { verifyContent } from "../../domain/review/content-binding.js";
import { DONE_OUTCOMES, type DoneOutcome } from "../../domain/deliverables/deliverable.js";
import { refusal, validationError } from "../../domain/errors.js";
import {
  formatHumanStoredId,
  formatWorkerStoredId,
  humanAuthorshipDecisionId,
  resolveSummary,
  storedDeliverableIssues,
  type StoredDeliverable,
  type StoredProvenance,
} from "../../domain/store/stored-deliverable.js";
import { readInputDescriptor, readInputFile } from "../../files/input-file.js";
import { pathExists } from "../../files/probe.js";
import {
  claimStoredVersion,
  storeDir,
  storedIdStamp,
  withStoredIdLock,
  type SaveStoredResult,
} from "../../files/store/deliverable-store.js";
import {
  decisionsForRef,
  decisionsForWorker,
  insertDecision,
  toDecisionRecord,
} from "../../ledger/review/decisions.js";
import type { Tx } from "../../ledger/core/runner.js";
import { DIRTY, pinStored, repinStored, setStamp, upsertIndexRow } from "../../ledger/store/store-index.js";
import type { EngineContext } from "../context.js";
import { deliverableByRef, workerRefOf } from "../review/deliverables.js";
import { indexRowOf } from "./catalog.js";
import { assertHuman } from "../authority.js";

export interface SaveResult {
  ref: string;
  id: string;
  version: number;
  idempotent: boolean;
  path: string;
}

/** The deterministic store id of a worker's records: its id plus a hash that also covers when the worker was created. */
export function workerStoredId(workerId: string, workerCreatedAt: string): string {
  return formatWorkerStoredId(workerId, createHash("sha256").update(`${workerId}\0${workerCreatedAt}`).digest("hex"));
}

/** Claims the record and indexes it, all under the per-deliverable lock so index stamps never run ahead of files. */
function commitToStore(
  ctx: EngineContext,
  record: StoredDeliverable,
  isSame: (r: StoredDeliverable) => boolean,
  audit?: (tx: Tx) => void,
): SaveResult {
  const issues = storedDeliverableIssues(record, { id: record.id, version: record.version });
  if (issues.length > 0) throw refusal("stored-invalid", `Invalid stored deliverable: ${issues.join(", ")}`);
  // A new id directory changes the store's top stamp, which already makes the next list look; an existing one does not.
  const existingDir = pathExists(storeDir(ctx.home, record.id));
  const saved: SaveStoredResult = withStoredIdLock(ctx.home, record.id, () => {
    // Marked dirty first: a crash after the claim but before the index row makes the next list re-read this id.
    if (existingDir) ctx.commands.run("store.mark-dirty", { id: record.id }, (tx) => setStamp(tx, record.id, DIRTY));
    const result = claimStoredVersion(ctx.home, record, isSame);
    const stamp = storedIdStamp(ctx.home, record.id);
    ctx.commands.run("store.index-saved", { ref: record.ref }, (tx) => {
      upsertIndexRow(
        tx,
        indexRowOf({
          id: record.id,
          version: record.version,
          path: result.path,
          classification: { status: "ok", record: result.record },
        }),
      );
      // A version this save claimed is pinned to the bytes it wrote; an identical existing one keeps its first pin.
      if (result.idempotent) pinStored(tx, record.id, record.version, result.sha256);
      else repinStored(tx, record.id, record.version, result.sha256);
      setStamp(tx, record.id, stamp);
      if (!result.idempotent) audit?.(tx);
    });
    return result;
  });
  return {
    ref: saved.record.ref,
    id: saved.record.id,
    version: saved.record.version,
    idempotent: saved.idempotent,
    path: saved.path,
  };
}

export interface SaveFromInput {
  /** `w3` (its current version) or `worker-deliverable:w3:2` (that exact version, which must be the current one). */
  from: string;
}

/** Saves an exactly approved current worker version: body, frozen patch, evidence, refs, review notes, approval, provenance. */
export function saveFromWorker(ctx: EngineContext, input: SaveFromInput): SaveResult {
  assertHuman(ctx, "save");
  const target = deliverableByRef(ctx, workerRefOf(input.from));
  const { workerId, worker, pointer, deliverable: d } = target;
  const current = worker.deliverableVersion;
  if (current !== null && pointer.version < current) {
    throw refusal(
      "deliverable-superseded",
      `${pointer.ref} is superseded by v${current}; only the current version of ${workerId} can be saved`,
      `review and approve v${current}, then run \`docket save --from ${workerId}\``,
    );
  }
  const decisions = decisionsForWorker(ctx.db, workerId).map(toDecisionRecord);
  const approval = approvalFor(decisions, pointer);
  if (approval)
    verifyContent({ ref: pointer.ref, file: target.path, expected: approval.contentSha256, actual: target.sha256 });
  if (!approval) {
    const last = latestJudgment(decisions, pointer);
    throw notApproved({
      verb: "save",
      ref: pointer.ref,
      worker: workerId,
      rejectedBy: last?.verb === "reject" ? last.id : undefined,
    });
  }
  const reviewNotes = decisionsForRef(ctx.db, pointer.ref)
    .filter((x) => x.verb === "revise" && x.note)
    .map((x) => ({ text: x.note!, createdAt: x.at, decisionId: x.id }));
  const id = workerStoredId(workerId, worker.createdAt);
  const provenance = d.sourceHandoff ?? worker.sourceHandoff ?? undefined;
  const record: StoredDeliverable = {
    schemaVersion: 2,
    id,
    version: pointer.version,
    ref: storedRef(id, pointer.version),
    createdAt: d.createdAt,
    savedAt: ctx.clock.now(),
    body: d.body,
    summary: d.summary,
    outcome: d.outcome,
    evidence: d.evidence,
    recommendations: d.recommendations,
    refs: [
      { ref: pointer.ref, kind: "worker-deliverable" },
      ...(d.changeSet ? [{ ref: d.changeSet.ref, kind: "change-set" }] : []),
      ...(d.sourceHandoff ? [{ ref: d.sourceHandoff.sourceRef, kind: "handoff-source" }] : []),
    ],
    items: d.items,
    changeSet: d.changeSet,
    source: {
      kind: "worker",
      workerId,
      deliverable: pointer,
      task: d.source.task,
      createdAt: d.createdAt,
      workerKind: d.source.kind,
      generation: d.source.generation,
      model: d.source.model,
      thinking: d.source.thinking,
      toolCallId: d.toolCallId,
      cwd: worker.cwd,
    },
    reviewNotes,
    approval: {
      kind: "worker",
      decisionId: approval.id,
      decidedAt: approval.at,
      verb: approval.verb,
      actor: approval.actor,
      deliverable: pointer,
    },
    handoffProvenance: (provenance ?? null) as StoredProvenance | null,
  };
  const isSame = (r: StoredDeliverable) =>
    r.source.kind === "worker" && r.source.workerId === workerId && r.source.deliverable.ref === pointer.ref;
  return commitToStore(ctx, record, isSame, (tx) =>
    insertDecision(tx, {
      actor: "human",
      verb: "save",
      worker: workerId,
      deliverable: pointer,
      note: record.ref,
      contentSha256: target.sha256,
    }),
  );
}

export interface SaveAuthoredInput {
  /** A file path, or `-` for standard input. */
  bodyFile: string;
  outcome: string;
  summary?: string;
}

/** A human-authored v1 record with a synthetic human-authorship approval: immediately usable. */
export function saveAuthored(ctx: EngineContext, input: SaveAuthoredInput): SaveResult {
  assertHuman(ctx, "save");
  if (!(DONE_OUTCOMES as readonly string[]).includes(input.outcome)) {
    throw validationError("bad-outcome", `outcome must be one of ${DONE_OUTCOMES.join(", ")}; got "${input.outcome}"`);
  }
  const fromStdin = input.bodyFile === "-";
  const body = (
    fromStdin
      ? readInputDescriptor(0, "--author - (standard input)")
      : readInputFile(resolve(ctx.cwd, input.bodyFile), `--author ${input.bodyFile}`)
  ).toString("utf8");
  if (body.trim() === "")
    throw validationError(
      "author-empty",
      `the authored body from ${fromStdin ? "standard input" : input.bodyFile} is empty; write the deliverable text first`,
    );
  const now = ctx.clock.now();
  const id = formatHumanStoredId(now, randomBytes(6).toString("hex"));
  const record: StoredDeliverable = {
    schemaVersion: 2,
    id,
    version: 1,
    ref: storedRef(id, 1),
    createdAt: now,
    savedAt: now,
    body,
    summary: resolveSummary(body, input.summary),
    outcome: input.outcome as DoneOutcome,
    evidence: [],
    recommendations: [],
    refs: [],
    items: [],
    changeSet: null,
    source: {
      kind: "human",
      createdAt: now,
      authoredFrom: fromStdin ? "stdin" : resolve(ctx.cwd, input.bodyFile),
      cwd: ctx.cwd,
    },
    reviewNotes: [],
    approval: { kind: "human", decisionId: humanAuthorshipDecisionId(id), decidedAt: now, reason: "human-authorship" },
    handoffProvenance: null,
  };
  return commitToStore(ctx, record, () => false);
}
