// Base moved, derived on read: for each worker whose current version is not decided, the landed files among those it
// read, edited or plans to edit; for an unjudged version, the files that landed after it was produced (issue 16 §5).

import type { SourceHandoff, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { formatProducedBefore, resolveBaseMoved, type BaseMoved } from "../../domain/review/base-moved.js";
import { parsePlan } from "../../domain/plans/plan-contract.js";
import { readWorkerText } from "../../files/workers/worker-files.js";
import { landedSince } from "../../ledger/talk/journal.js";
import { touchesOf } from "../../ledger/workers/touched-paths.js";
import { statement } from "../../ledger/core/statements.js";
import type { WorkerRow } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import type { ReviewWarning } from "./warnings.js";

export type BaseMovedRow = Pick<WorkerRow, "id" | "created_at" | "project_root" | "source_handoff" | "deliverable_ref" | "reviewed_at">;

/** Terminal verbs: a version judged (or closed as combined) is decided, and a decided row shows no base moved. */
const DECIDING = ["approve", "reject", "promote", "combine"];

/** An approved plan's file entries, read once per worker (its source deliverable never changes). */
const plans = new Map<string, readonly string[]>();

export function plannedFiles(ctx: EngineContext, row: Pick<WorkerRow, "id" | "source_handoff">): readonly string[] {
  if (!row.source_handoff) return [];
  const key = `${ctx.home.root}\0${row.id}`;
  let files = plans.get(key);
  if (files === undefined) {
    const handoff = JSON.parse(row.source_handoff) as SourceHandoff;
    const body = handoff.planAuthorized ? readWorkerText(ctx.home, row.id, "source-deliverable.md") : undefined;
    files = body === undefined ? [] : (parsePlan(body)?.files ?? []);
    plans.set(key, files);
  }
  return files;
}

function decidedRefs(ctx: EngineContext, refs: readonly string[]): Set<string> {
  if (refs.length === 0) return new Set();
  const rows = statement(ctx.db, `SELECT DISTINCT deliverable_ref AS ref FROM decisions WHERE deliverable_ref IN (SELECT value FROM json_each(?))
      AND verb IN (SELECT value FROM json_each(?))`).all(JSON.stringify(refs), JSON.stringify(DECIDING)) as { ref: string }[];
  return new Set(rows.map((r) => r.ref));
}

/** Per worker (only those with landed files it works on and no decided current version). */
export function baseMovedOf(ctx: EngineContext, rows: readonly BaseMovedRow[]): Map<string, BaseMoved> {
  const out = new Map<string, BaseMoved>();
  const decided = decidedRefs(ctx, rows.flatMap((r) => (r.deliverable_ref ? [r.deliverable_ref] : [])));
  const open = rows.filter((r) => r.reviewed_at === null && !(r.deliverable_ref && decided.has(r.deliverable_ref)));
  if (open.length === 0) return out;
  const touches = touchesOf(ctx.db, open.map((r) => r.id));
  const landedByRoot = new Map<string, ReturnType<typeof landedSince>>();
  for (const r of open) {
    let landed = landedByRoot.get(r.project_root);
    if (landed === undefined) {
      const since = open.filter((o) => o.project_root === r.project_root).map((o) => o.created_at).sort()[0]!;
      landedByRoot.set(r.project_root, (landed = landedSince(ctx.db, r.project_root, since)));
    }
    if (landed.length === 0) continue;
    const t = touches.get(r.id)!;
    const moved = resolveBaseMoved(r.id, r.created_at, { touched: [...t.read, ...t.edit], planned: plannedFiles(ctx, r) }, landed);
    if (moved.files.length > 0) out.set(r.id, moved);
  }
  return out;
}

/** The warning an unjudged version carries when files it (or its worker) works on landed after it was produced. */
export function producedBeforeWarning(ctx: EngineContext, row: BaseMovedRow, d: WorkerDeliverable): ReviewWarning | undefined {
  const landed = landedSince(ctx.db, row.project_root, d.createdAt);
  if (landed.length === 0) return undefined;
  const t = touchesOf(ctx.db, [row.id]).get(row.id)!;
  const touched = [...(d.changeSet?.files.map((f) => f.path) ?? []), ...t.read, ...t.edit];
  const moved = resolveBaseMoved(row.id, d.createdAt, { touched, planned: plannedFiles(ctx, row) }, landed);
  return moved.files.length === 0 ? undefined : { kind: "base-moved", text: formatProducedBefore(moved.files) };
}
