// Reading frozen deliverable versions for review: by worker (current pointer) or by exact ref/version.
// Only the sidecar is ever read: a missing or invalid one is refused, never replaced by live state
// (docs/decisions/immutable-deliverables.md).

import {
  deliverableId,
  deliverableRef,
  parseWorkerRef,
  type WorkerVersionRef,
} from "../../domain/deliverables/refs.js";
import type { Worker } from "../../domain/workers/worker.js";
import type { DeliverablePointer, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { notFound, refusal, validationError, type DocketError } from "../../domain/errors.js";
import { idempotencyKey } from "../../domain/idempotency.js";
import { readDeliverable, type SidecarRead } from "../../files/workers/deliverables.js";
import { storedResult } from "../../ledger/workers/protocol.js";
import { getWorker, getWorkerEverRecorded, requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { derivePlanCoverage, type DerivedPlanCoverage } from "./plan-coverage.js";

export type { SidecarRead };

/** Reads one version's sidecar: from the home, or through a review run's memo (review-facts.ts) so it is read once. */
export type SidecarReader = (workerId: string, version: number) => SidecarRead;

/** The worker row's committed pointer, or undefined before its first accepted done. */
export function pointerOf(row: Worker): DeliverablePointer | undefined {
  if (!row.deliverableId || row.deliverableVersion === null || !row.deliverableRef) return undefined;
  return { id: row.deliverableId, version: row.deliverableVersion, ref: row.deliverableRef };
}

export function currentDeliverable(
  ctx: EngineContext,
  workerId: string,
): { pointer: DeliverablePointer; read: SidecarRead } | undefined {
  const row = getWorker(ctx.db, workerId);
  const pointer = row && pointerOf(row);
  if (!pointer) return undefined;
  return { pointer, read: readDeliverable(ctx.home, workerId, pointer.version) };
}

export interface ResolvedDeliverable {
  workerId: string;
  worker: Worker;
  pointer: DeliverablePointer;
  deliverable: WorkerDeliverable;
  /** The sidecar file and the sha256 of the exact bytes parsed: what a judgment of this version binds to. */
  path: string;
  sha256: string;
}

/** `w3`, `w3:v2` or `worker-deliverable:w3:2`, parsed once where a command takes it; refused when it is none of these. */
export function workerRefOf(text: string): WorkerVersionRef {
  const ref = parseWorkerRef(text);
  if (!ref) throw notAWorkerRef(text);
  return ref;
}

export function notAWorkerRef(text: string): DocketError {
  return validationError(
    "bad-deliverable-ref",
    `"${text}" is not a worker or deliverable ref`,
    "use w<N>, w<N>:v<K> or worker-deliverable:w<N>:<K>",
  );
}

/**
 * A worker's version as parsed, optionally with an explicit version (which must agree with the ref's). Without a
 * version: the worker's current one. Throws a one-line DocketError saying what to do.
 */
export function deliverableByRef(
  ctx: EngineContext,
  ref: WorkerVersionRef,
  version?: number,
  read: SidecarReader = (w, v) => readDeliverable(ctx.home, w, v),
): ResolvedDeliverable {
  const workerId = ref.worker;
  const named = ref.version;
  if (named !== undefined && version !== undefined && version !== named) {
    throw validationError(
      "version-mismatch",
      `${ref.text} names version ${named} but --version says ${version}`,
      "give one of them",
    );
  }
  // An exact ref reads a deleted worker's versions too: delete removes the worker, never what it published.
  const row = (named !== undefined && getWorkerEverRecorded(ctx.db, workerId)) || requireWorker(ctx.db, workerId);
  const current = pointerOf(row);
  if (!current)
    throw notFound(
      "no-deliverable",
      `${workerId} has not published a deliverable yet`,
      `wait for it to call docket_done, or run \`docket peek ${workerId}\``,
    );
  const wanted = named ?? version ?? current.version;
  if (wanted > current.version) {
    throw notFound(
      "no-such-version",
      `${workerId} has no published version ${wanted}; its current version is v${current.version}`,
      `run \`docket report ${workerId}\``,
    );
  }
  const sidecar = read(workerId, wanted);
  const exactRef = deliverableRef(workerId, wanted);
  if (!sidecar.ok) {
    throw refusal(
      "deliverable-invalid",
      `deliverable ${exactRef} is missing or invalid (${sidecar.reason}); restore it or ask the worker to publish a new version`,
    );
  }
  return {
    workerId,
    worker: row,
    pointer: { id: deliverableId(workerId), version: wanted, ref: exactRef },
    deliverable: sidecar.deliverable,
    path: sidecar.path,
    sha256: sidecar.sha256,
  };
}

export interface DeliverableItemResult {
  item: string;
  outcome: string;
  /** What the report path did with this entry (`not recorded` when it was refused or never ran). */
  status: string;
  reportId?: string;
}

export interface DeliverableReport extends ResolvedDeliverable {
  task: string;
  state: string;
  items: DeliverableItemResult[];
  /** For a plan handoff: derived from the source plan and the frozen patch (never stored). */
  planCoverage: DerivedPlanCoverage | null;
}

/** Everything `docket report` shows, from the frozen sidecar plus the ledger's per-item results for its call. */
export function deliverableReport(ctx: EngineContext, workerOrRef: string, version?: number): DeliverableReport {
  const resolved = deliverableByRef(ctx, workerRefOf(workerOrRef), version);
  const d = resolved.deliverable;
  const items = d.items.map((i) => {
    const key = idempotencyKey({ tool: "done", worker: resolved.workerId, callId: d.toolCallId, item: i.item.trim() });
    const stored = storedResult<{ status?: string; reportId?: string }>(ctx.db, key);
    return {
      item: i.item,
      outcome: i.outcome,
      status: stored?.status ?? "not recorded",
      ...(stored?.reportId ? { reportId: stored.reportId } : {}),
    };
  });
  return {
    ...resolved,
    task: resolved.worker.task,
    state: resolved.worker.state,
    items,
    planCoverage: derivePlanCoverage(ctx, resolved.worker, d),
  };
}
