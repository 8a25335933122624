// A kind's promises checked after the fact, sandbox or not: did a read-only worker's checkout change during its run,
// and which files had a plan-gated worker changed before the human discharged its gate (docs/containment.md).

import { workerTreeOf } from "../../domain/workers/worker-tree.js";
import type { ReviewWarning } from "../review/warnings.js";
import type { PlanGateState } from "../../domain/plans/plan-gate.js";
import type { Worker } from "../../domain/workers/worker.js";
import { hashPaths, readIntegrity, recordIntegrity } from "../../files/workers/integrity.js";
import { decisionsForWorker } from "../../ledger/review/decisions.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { kindRegistry } from "./kinds.js";

export type GateState = PlanGateState;

/**
 * A plan-gated kind's gate: discharged at launch by Use → Implement of an approved plan, or in the run by the human's
 * answer to one of its questions (the plan it presented with docket_wait); armed otherwise. A parent agent's answer never discharges it.
 */
export function planGateState(ctx: EngineContext, worker: string): GateState {
  const row = getWorker(ctx.db, worker);
  if (!row) return "armed"; // an unknown worker is given nothing
  const kind = kindRegistry(ctx).kinds.get(row.kind);
  if (!kind?.planGate) return "none";
  if (row.sourceHandoff?.planAuthorized) return "discharged";
  return decisionsForWorker(ctx.db, worker).some((d) => d.actor === "human" && d.verb === "answer")
    ? "discharged"
    : "armed";
}

/** Paths that differ: the checkout's uncommitted ones, or a worker tree's against its base; undefined when git cannot tell. */
function changedPaths(read: () => string[]): string[] | undefined {
  try {
    return read();
  } catch {
    return undefined; // not a repository, or its HEAD is unborn: nothing to compare with
  }
}

/** At spawn of a read-only worker: the checkout's uncommitted paths and their bytes, to compare with later. */
export function snapshotCheckout(ctx: EngineContext, row: Worker): void {
  const paths = changedPaths(() => ctx.git.checkoutChangedPaths(row.projectRoot));
  if (paths) recordIntegrity(ctx.home, row.id, { checkoutAtSpawn: hashPaths(row.projectRoot, paths) });
}

/** When a plan-gated worker asks (docket_wait) or is answered while its gate is armed: what its workspace had changed. */
export function snapshotGate(ctx: EngineContext, worker: string, moment: "asked" | "discharged"): void {
  const row = getWorker(ctx.db, worker);
  if (row?.workspaceMode !== "isolated" || row.base === null || planGateState(ctx, worker) !== "armed") return;
  const paths = changedPaths(() => ctx.git.liveChangedPaths(workerTreeOf(row), row.base!));
  if (paths) recordIntegrity(ctx.home, worker, moment === "asked" ? { gateAsked: paths } : { gateDischarged: paths });
}

/** Which of the checkout's paths differ from what a read-only worker found at spawn (by it or by the human meanwhile). */
export function checkoutChangesSince(ctx: EngineContext, row: Worker): string[] {
  const before = readIntegrity(ctx.home, row.id).checkoutAtSpawn;
  if (!before) return [];
  const paths = changedPaths(() => ctx.git.checkoutChangedPaths(row.projectRoot));
  if (!paths) return [];
  const now = hashPaths(row.projectRoot, paths);
  return [...new Set([...Object.keys(before), ...Object.keys(now)])].filter((p) => before[p] !== now[p]).sort();
}

const list = (paths: readonly string[]) =>
  `${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ` and ${paths.length - 5} more` : ""}`;

/** The card's warnings about a kind's promises; empty when each was kept. */
export function integrityWarnings(ctx: EngineContext, row: Worker): ReviewWarning[] {
  const out: ReviewWarning[] = [];
  const changed = row.execution?.readOnly ? checkoutChangesSince(ctx, row) : [];
  if (changed.length > 0) {
    out.push({
      kind: "checkout-changed",
      text: `your checkout changed while read-only ${row.id} ran (by it or by you): ${list(changed)}`,
    });
  }
  const rec = readIntegrity(ctx.home, row.id);
  const early = [...new Set([...(rec.gateAsked ?? []), ...(rec.gateDischarged ?? [])])].sort();
  if (early.length > 0)
    out.push({
      kind: "before-plan",
      text: `${row.id} changed files before its plan gate was discharged: ${list(early)}`,
    });
  return out;
}
