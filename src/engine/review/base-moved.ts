// Base moved, derived on read: for each worker whose current version is not decided, the landed files among those it
// read, edited or plans to edit; for an unjudged version, the files that landed after it was produced.

import type { WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { formatProducedBefore, resolveBaseMoved, type BaseMoved } from "../../domain/review/base-moved.js";
import { parsePlan } from "../../domain/plans/plan-contract.js";
import { WORKER_FILES, readWorkerText } from "../../files/workers/worker-files.js";
import { landedSince } from "../../ledger/talk/journal.js";
import { touchesOf } from "../../ledger/workers/touched-paths.js";
import { judgedRefs } from "../../ledger/review/decisions.js";
import type { Worker } from "../../domain/workers/worker.js";
import type { EngineContext } from "../context.js";
import type { ReviewWarning } from "./warnings.js";

export type BaseMovedRow = Pick<
  Worker,
  "id" | "createdAt" | "projectRoot" | "sourceHandoff" | "deliverableRef" | "reviewedAt"
>;

/** An approved plan's file entries, read once per worker (its source deliverable never changes). */
const plans = new Map<string, readonly string[]>();

export function plannedFiles(ctx: EngineContext, row: Pick<Worker, "id" | "sourceHandoff">): readonly string[] {
  if (!row.sourceHandoff) return [];
  const key = `${ctx.home.root}\0${row.id}`;
  let files = plans.get(key);
  if (files === undefined) {
    const body = row.sourceHandoff.planAuthorized
      ? readWorkerText(ctx.home, row.id, WORKER_FILES.sourcePlan)
      : undefined;
    files = body === undefined ? [] : (parsePlan(body)?.files ?? []);
    plans.set(key, files);
  }
  return files;
}

/** Per worker (only those with landed files it works on and no decided current version). */
export function baseMovedOf(ctx: EngineContext, rows: readonly BaseMovedRow[]): Map<string, BaseMoved> {
  const out = new Map<string, BaseMoved>();
  const decided = judgedRefs(
    ctx.db,
    rows.flatMap((r) => (r.deliverableRef ? [r.deliverableRef] : [])),
  );
  const open = rows.filter((r) => r.reviewedAt === null && !(r.deliverableRef && decided.has(r.deliverableRef)));
  if (open.length === 0) return out;
  const touches = touchesOf(
    ctx.db,
    open.map((r) => r.id),
  );
  const landedByRoot = new Map<string, ReturnType<typeof landedSince>>();
  for (const r of open) {
    let landed = landedByRoot.get(r.projectRoot);
    if (landed === undefined) {
      const since = open
        .filter((o) => o.projectRoot === r.projectRoot)
        .map((o) => o.createdAt)
        .sort()[0]!;
      landedByRoot.set(r.projectRoot, (landed = landedSince(ctx.db, r.projectRoot, since)));
    }
    if (landed.length === 0) continue;
    const t = touches.get(r.id)!;
    const moved = resolveBaseMoved(
      r.id,
      r.createdAt,
      { touched: [...t.read, ...t.edit], planned: plannedFiles(ctx, r) },
      landed,
    );
    if (moved.files.length > 0) out.set(r.id, moved);
  }
  return out;
}

/** The warning an unjudged version carries when files it (or its worker) works on landed after it was produced. */
export function producedBeforeWarning(
  ctx: EngineContext,
  row: BaseMovedRow,
  d: WorkerDeliverable,
): ReviewWarning | undefined {
  const landed = landedSince(ctx.db, row.projectRoot, d.createdAt);
  if (landed.length === 0) return undefined;
  const t = touchesOf(ctx.db, [row.id]).get(row.id)!;
  const touched = [...(d.changeSet?.files.map((f) => f.path) ?? []), ...t.read, ...t.edit];
  const moved = resolveBaseMoved(row.id, d.createdAt, { touched, planned: plannedFiles(ctx, row) }, landed);
  return moved.files.length === 0 ? undefined : { kind: "base-moved", text: formatProducedBefore(moved.files) };
}
