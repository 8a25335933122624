// Plan coverage: the files an approved plan named compared with the files a deliverable's frozen patch changed.
// Derived at review time, never stored (docs/decisions/plans.md); `touched` counts DISTINCT planned files (the anchor
// over-counts).

import { parsePlan, type Plan } from "./plan-contract.js";

export interface PlanCoverage {
  steps: number;
  planned: string[];
  touched: string[];
  offPlan: string[];
  untouched: string[];
}

const cleanPath = (p: string): string => {
  const t = p.trim();
  return t.startsWith("./") ? t.replace(/^(?:\.\/)+/, "") : t;
};

const escapeRegex = (s: string): string => s.replace(/[.+^${}()|[\]\\?]/g, "\\$&");

/** `**` spans directories, `*` stays inside one segment. */
function globRegex(glob: string): RegExp | undefined {
  const collapsed = glob.replace(/\*{3,}/g, "**");
  if ((collapsed.match(/\*+/g) ?? []).length > MAX_GLOB_WILDCARDS) return undefined; // bounded backtracking
  const body = collapsed
    .split("**")
    .map((part) => part.split("*").map(escapeRegex).join("[^/]*"))
    .join(".*");
  return new RegExp(`(?:^|/)${body}$`);
}

const MAX_GLOB_WILDCARDS = 3;

/**
 * A changed file matches a planned entry when they are equal or one ends with `/` + the other (`auth.ts` matches
 * `src/auth.ts`); a planned entry ending in `/` names a directory (any file under it); `*` / `**` are globs.
 */
export function isPlannedPathMatch(planned: string, changed: string): boolean {
  return compilePlanned(cleanPath(planned)).test(cleanPath(changed));
}

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** `p === c || p.endsWith("/" + c) || c.endsWith("/" + p)`, read backwards once without building a string. */
function sameTail(p: string, c: string): boolean {
  let i = p.length - 1;
  let j = c.length - 1;
  while (i >= 0 && j >= 0 && p.charCodeAt(i) === c.charCodeAt(j)) {
    i--;
    j--;
  }
  if (i < 0) return j < 0 || c.charCodeAt(j) === 47;
  return j < 0 && p.charCodeAt(i) === 47;
}

/**
 * One cleaned planned entry, its glob compiled once. A plain entry matches only paths with its base name (equal, or
 * one ending in `/` + the other), so it carries that name and is tried only against changed files that share it.
 */
function compilePlanned(p: string): { name?: string; test: (c: string) => boolean } {
  if (p === "") return { test: () => false };
  if (p.includes("*")) {
    const glob = globRegex(p);
    if (glob) return { test: (c) => c !== "" && glob.test(c) };
  }
  if (p.endsWith("/")) return { test: (c) => c !== "" && (c.startsWith(p) || c.includes(`/${p}`)) };
  return { name: baseName(p), test: (c) => c !== "" && sameTail(p, c) };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Distinct non-empty cleaned paths, in first-seen order. */
function distinctCleaned(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const path of paths) {
    const p = cleanPath(path);
    if (p !== "") seen.add(p);
  }
  return [...seen];
}

/**
 * planned = the plan's files; touched = distinct planned files some changed file matches (plan order);
 * untouched = the other planned files; offPlan = distinct changed files matching no planned file (change order).
 * A plan that names no files yields no drift (offPlan and untouched stay empty): there is no scope to leave.
 * Each path is cleaned once, and a plain entry meets only the changed files with its base name.
 */
export function resolvePlanCoverage(plan: Plan, changedFiles: string[]): PlanCoverage {
  const planned = distinctCleaned(plan.files);
  const changed = distinctCleaned(changedFiles);
  if (planned.length === 0) return { steps: plan.steps.length, planned, touched: [], offPlan: [], untouched: [] };
  // Matching has always cleaned both sides once more, and cleaning is not idempotent (` ./ ./x`): that stays.
  const targets = changed.map(cleanPath);
  const all = targets.map((_, k) => k);
  const named = groupBy(all, (k) => baseName(targets[k]!));
  const met = new Uint8Array(targets.length);
  const touched: string[] = [];
  const untouched: string[] = [];
  for (const raw of planned) {
    const entry = compilePlanned(cleanPath(raw));
    let hit = false;
    for (const k of entry.name === undefined ? all : (named.get(entry.name) ?? [])) {
      if (!entry.test(targets[k]!)) continue;
      hit = true;
      met[k] = 1;
    }
    (hit ? touched : untouched).push(raw);
  }
  return { steps: plan.steps.length, planned, touched, offPlan: changed.filter((_, k) => met[k] === 0), untouched };
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
