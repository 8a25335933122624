// Plan coverage: the files an approved plan named compared with the files a deliverable's frozen patch changed.
// Derived at review time, never stored (ADR-0007); `touched` counts DISTINCT planned files (the anchor over-counts).

import { parsePlan, type Plan } from "./plan-contract.js";

export interface PlanCoverage { steps: number; planned: string[]; touched: string[]; offPlan: string[]; untouched: string[] }

const cleanPath = (p: string): string => p.trim().replace(/^(?:\.\/)+/, "");

const escapeRegex = (s: string): string => s.replace(/[.+^${}()|[\]\\?]/g, "\\$&");

/** `**` spans directories, `*` stays inside one segment. */
function globRegex(glob: string): RegExp | undefined {
  const collapsed = glob.replace(/\*{3,}/g, "**");
  if ((collapsed.match(/\*+/g) ?? []).length > MAX_GLOB_WILDCARDS) return undefined; // bounded backtracking
  const body = collapsed.split("**").map((part) => part.split("*").map(escapeRegex).join("[^/]*")).join(".*");
  return new RegExp(`(?:^|/)${body}$`);
}

const MAX_GLOB_WILDCARDS = 3;

/**
 * A changed file matches a planned entry when they are equal or one ends with `/` + the other (`auth.ts` matches
 * `src/auth.ts`); a planned entry ending in `/` names a directory (any file under it); `*` / `**` are globs.
 */
export function isPlannedPathMatch(planned: string, changed: string): boolean {
  const p = cleanPath(planned);
  const c = cleanPath(changed);
  if (p === "" || c === "") return false;
  if (p.includes("*")) {
    const glob = globRegex(p);
    if (glob) return glob.test(c);
  }
  if (p.endsWith("/")) return c.startsWith(p) || c.includes(`/${p}`);
  return p === c || p.endsWith(`/${c}`) || c.endsWith(`/${p}`);
}

/**
 * planned = the plan's files; touched = distinct planned files some changed file matches (plan order);
 * untouched = the other planned files; offPlan = distinct changed files matching no planned file (change order).
 * A plan that names no files yields no drift (offPlan and untouched stay empty): there is no scope to leave.
 */
export function resolvePlanCoverage(plan: Plan, changedFiles: string[]): PlanCoverage {
  const planned = [...new Set(plan.files.map(cleanPath).filter((p) => p !== ""))];
  const changed = [...new Set(changedFiles.map(cleanPath).filter((p) => p !== ""))];
  if (planned.length === 0) return { steps: plan.steps.length, planned, touched: [], offPlan: [], untouched: [] };
  const touched = planned.filter((p) => changed.some((c) => isPlannedPathMatch(p, c)));
  const untouched = planned.filter((p) => !touched.includes(p));
  const offPlan = changed.filter((c) => !planned.some((p) => isPlannedPathMatch(p, c)));
  return { steps: plan.steps.length, planned, touched, offPlan, untouched };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `plan <ref> · N steps · X/Y planned files touched · K untouched · M off-plan` (or `no files named`). */
export function formatPlanCoverageLine(c: PlanCoverage, sourceRef: string): string {
  const head = `plan ${sourceRef} · ${plural(c.steps, "step")}`;
  if (c.planned.length === 0) return `${head} · no files named`;
  return `${head} · ${c.touched.length}/${c.planned.length} planned files touched · ${c.untouched.length} untouched · ${c.offPlan.length} off-plan`;
}

/** Drift worth a warning colour: a changed file the plan did not name, or a planned file left untouched. */
export function isCoverageWarning(c: PlanCoverage): boolean {
  return c.offPlan.length > 0 || c.untouched.length > 0;
}

/**
 * Coverage of a handoff worker's deliverable against its byte-exact source (`source-deliverable.md`): null when there
 * is no source or it does not parse as a plan (the card then shows no coverage line and everything else still works).
 */
export function resolveSourcePlanCoverage(sourceBody: string | undefined, changedFiles: string[]): PlanCoverage | null {
  if (sourceBody === undefined) return null;
  const plan = parsePlan(sourceBody);
  return plan ? resolvePlanCoverage(plan, changedFiles) : null;
}
