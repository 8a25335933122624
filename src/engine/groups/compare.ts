// `docket compare b<N>`: every candidate's current frozen version side by side — who made it, its state, its change
// set's size, its evidence, spend, plan coverage, files only it touched and the overlap between candidates.

import type { ShownCandidate } from "../../domain/groups/choice.js";
import { resolveCompareStats, type CandidateOverlap } from "../../domain/groups/compare-stats.js";
import type { ShownSurface } from "../../domain/review/shown-binding.js";
import { addTotals, EMPTY_TOTALS, type SpendTotals } from "../../domain/workers/spend.js";
import type { Worker } from "../../domain/workers/worker.js";
import { recordGroupShown, type WorkerGroup } from "../../ledger/groups/groups.js";
import { decisionsForRef } from "../../ledger/review/decisions.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import { humanRefusal } from "../authority.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "../review/deliverables.js";
import { workerVersionRef } from "../../domain/deliverables/refs.js";
import { derivePlanCoverage } from "../review/plan-coverage.js";
import { approvalOf, resolveReviewTarget, type ReviewTarget } from "../review/target.js";
import { refreshSpend, workerSpend } from "../workers/spend.js";
import { requireGroup } from "./group-ref.js";

export interface ComparedFile {
  path: string;
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface ComparedCandidate {
  worker: string;
  agent: string;
  model: string | null;
  state: string;
  /** No version yet and its agent still runs: it is still working on the brief. */
  working: boolean;
  exited: boolean;
  ref: string | null;
  version: number | null;
  sha256: string | null;
  /** Why its version could not be read (a missing or corrupt sidecar); nothing is compared for it then. */
  invalid: string | null;
  outcome: string | null;
  summary: string | null;
  files: ComparedFile[];
  additions: number;
  deletions: number;
  hunks: number;
  /** The tests it says it ran, as it gave them (`command → result`), never graded. */
  tests: string[];
  evidence: number;
  spend: SpendTotals | null;
  planCoverage: string | null;
  onlyHere: string[];
  /** This version's standing: chosen, not chosen, approved, or open. */
  judgment: "chosen" | "not-chosen" | "approved" | "open" | "none";
}

export interface Comparison {
  group: string;
  task: string;
  candidates: ComparedCandidate[];
  overlaps: CandidateOverlap[];
  chosen: { ref: string; decision: string; at: string } | null;
  budgetUsd: number | null;
  spend: SpendTotals;
}

export interface CompareOptions {
  /** The surface that displays it to the human: the comparison is then recorded as shown (what `choose` binds to). */
  surface?: ShownSurface;
}

export function compareGroup(ctx: EngineContext, group: string, options: CompareOptions = {}): Comparison {
  const g = requireGroup(ctx.db, group);
  const rows = g.workers.map((w) => requireWorker(ctx.db, w));
  refreshSpend(ctx, rows);
  const read = rows.map((row) => readCandidate(ctx, row));
  const stats = resolveCompareStats(
    read.map(({ row, target }) => ({
      worker: row.id,
      files: target?.deliverable.changeSet?.files ?? null,
      hunks: target?.deliverable.changeSet?.hunks ?? 0,
    })),
  );
  const candidates = read.map(({ row, target, invalid }, i): ComparedCandidate => {
    const s = stats.candidates[i]!;
    const d = target?.deliverable;
    const pointer = pointerOf(row) ?? null;
    const coverage = target ? derivePlanCoverage(ctx, row, d) : null;
    return {
      worker: row.id,
      agent: row.agent,
      model: row.modelInEffect ?? row.execution?.model ?? null,
      state: row.state,
      working: pointer === null && !row.exited && row.state !== "failed" && row.state !== "ended",
      exited: row.exited,
      ref: pointer?.ref ?? null,
      version: pointer?.version ?? null,
      sha256: target?.sha256 ?? null,
      invalid,
      outcome: d?.outcome ?? null,
      summary: d?.summary ?? null,
      files: (d?.changeSet?.files ?? []).map((f) => ({
        path: f.path,
        additions: f.additions,
        deletions: f.deletions,
        binary: Boolean(f.binary),
      })),
      additions: s.additions,
      deletions: s.deletions,
      hunks: s.hunks,
      tests: (d?.evidence ?? []).filter((e) => e.kind === "test").map((e) => e.text),
      evidence: d?.evidence.length ?? 0,
      spend: workerSpend(ctx, row, { read: true }).total,
      planCoverage: coverage?.line ?? null,
      onlyHere: s.onlyHere,
      judgment: judgmentOf(ctx, g.chosenRef, pointer),
    };
  });
  const spend = candidates.reduce((a, c) => (c.spend ? addTotals(a, c.spend) : a), { ...EMPTY_TOTALS });
  if (options.surface) recordShown(ctx, g, candidates, options.surface);
  return {
    group: g.id,
    task: g.task,
    candidates,
    overlaps: stats.overlaps,
    chosen:
      g.chosenRef && g.chosenDecision && g.chosenAt
        ? { ref: g.chosenRef, decision: g.chosenDecision, at: g.chosenAt }
        : null,
    budgetUsd: g.budgetUsd,
    spend,
  };
}

function readCandidate(
  ctx: EngineContext,
  row: Worker,
): { row: Worker; target: ReviewTarget | null; invalid: string | null } {
  const pointer = pointerOf(row);
  if (!pointer) return { row, target: null, invalid: null };
  try {
    return { row, target: resolveReviewTarget(ctx, workerVersionRef(row.id, pointer.version)), invalid: null };
  } catch (error) {
    if ((error as { code?: string }).code !== "deliverable-invalid") throw error;
    return { row, target: null, invalid: (error as Error).message };
  }
}

function judgmentOf(
  ctx: EngineContext,
  chosenRef: string | null,
  pointer: { id: string; version: number; ref: string } | null,
): ComparedCandidate["judgment"] {
  if (!pointer) return "none";
  if (chosenRef === pointer.ref) return "chosen";
  if (approvalOf(ctx.db, pointer)) return "approved";
  if (decisionsForRef(ctx.db, pointer.ref).some((d) => d.verb === "not-chosen")) return "not-chosen";
  return "open";
}

/**
 * Records what this comparison showed the human: `choose` holds to exactly these versions and bytes. A view by a
 * worker's process or the parent agent's tools shows the human nothing, so it records nothing (as recordShown does).
 */
function recordShown(
  ctx: EngineContext,
  group: WorkerGroup,
  candidates: readonly ComparedCandidate[],
  surface: ShownSurface,
) {
  if (ctx.readOnly || humanRefusal(ctx, "approve")) return;
  const shown: ShownCandidate[] = candidates.map((c) => ({ worker: c.worker, ref: c.ref, sha256: c.sha256 }));
  // The same comparison shown again on the same surface changes nothing: a page that re-renders costs no write.
  if (group.shownSurface === surface && JSON.stringify(group.shown) === JSON.stringify(shown)) return;
  ctx.commands.run("groups.shown", { group: group.id, shown, surface }, (tx) =>
    recordGroupShown(tx, group.id, shown, surface),
  );
}
