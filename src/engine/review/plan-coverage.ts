// Plan coverage of a handoff worker's deliverable, derived when it is reviewed and never stored
// (docs/decisions/plans.md): the byte-exact source plan (`source-deliverable.md`) against the frozen change set's
// files.

import type { SourceHandoff, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import {
  formatPlanCoverageLine,
  isCoverageWarning,
  resolveSourcePlanCoverage,
  type PlanCoverage,
} from "../../domain/plans/plan-coverage.js";
import { WORKER_FILES, readWorkerText } from "../../files/workers/worker-files.js";
import type { EngineContext } from "../context.js";

export interface DerivedPlanCoverage {
  coverage: PlanCoverage;
  line: string;
  warning: boolean;
  sourceRef: string;
}

/** Null when the worker did not come from a handoff, the source is missing, or it is not a plan. */
export function derivePlanCoverage(
  ctx: EngineContext,
  worker: { id: string; sourceHandoff: SourceHandoff | null },
  d: WorkerDeliverable | null | undefined,
): DerivedPlanCoverage | null {
  const handoff = d?.sourceHandoff ?? worker.sourceHandoff ?? undefined;
  if (!d || !handoff) return null;
  const body = readWorkerText(ctx.home, worker.id, WORKER_FILES.sourcePlan);
  if (body === undefined) return null; // no readable source plan: the review shows no coverage and everything else still works
  const coverage = resolveSourcePlanCoverage(
    body,
    (d.changeSet?.files ?? []).map((f) => f.path),
  );
  if (!coverage) return null;
  return {
    coverage,
    line: formatPlanCoverageLine(coverage, handoff.sourceRef),
    warning: isCoverageWarning(coverage),
    sourceRef: handoff.sourceRef,
  };
}
