// Base moved: files that landed in the project after a worker started, among those it read, edited or plans to edit.
// Derived on every read from the journal's promotions, never stored; a promotion crediting the worker is its own.
// Touched paths compare exactly (project coordinates); only an approved plan's entries match as the plan contract reads them.

import { isPlannedPathMatch } from "../plans/plan-coverage.js";

export interface LandedPromotion {
  at: string;
  paths: readonly string[];
  /** Workers the promotion credits. */
  workers: readonly string[];
  ref: string | null;
}

export interface BaseMoved {
  /** Landed files this worker works on, sorted. */
  files: string[];
  /** The promoted deliverables that landed them, oldest first. */
  refs: string[];
}

export interface WorkedOn {
  /** Files it read or edited (project coordinates). */
  touched: Iterable<string>;
  /** Entries of its approved plan's files (may be names, directories or globs). */
  planned?: readonly string[];
}

/**
 * Files it works on that promotions after `since` landed, except promotions crediting `worker`. Empty when
 * nothing it works on moved.
 */
export function resolveBaseMoved(
  worker: string,
  since: string,
  on: WorkedOn,
  landed: readonly LandedPromotion[],
): BaseMoved {
  const mine = new Set(on.touched);
  const planned = on.planned ?? [];
  const files = new Set<string>();
  const refs: string[] = [];
  for (const p of landed) {
    if (p.at <= since || p.workers.includes(worker)) continue;
    const hit = p.paths.filter((path) => mine.has(path) || planned.some((entry) => isPlannedPathMatch(entry, path)));
    if (hit.length === 0) continue;
    hit.forEach((f) => files.add(f));
    if (p.ref && !refs.includes(p.ref)) refs.push(p.ref);
  }
  return { files: [...files].sort(), refs };
}

/** `base moved · 2 files` (the dock, `ls`, the fleet views). */
export function formatBaseMoved(moved: BaseMoved): string | undefined {
  const n = moved.files.length;
  return n === 0 ? undefined : `base moved · ${n} file${n === 1 ? "" : "s"}`;
}

/** The warning an unjudged version carries: `produced before a.ts, b.ts landed · re-check before promoting`. */
export function formatProducedBefore(files: readonly string[], max = 72): string {
  let list = files.join(", ");
  if (list.length > max) list = `${list.slice(0, max - 1)}…`;
  return `produced before ${list} landed · re-check before promoting`;
}
