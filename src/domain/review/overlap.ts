// Grades how two workers' frozen patches overlap on each shared pre-image path (docs/collisions.md).
// Lines between the nearest changes: 0 (touching or shared) → contested; ≤ adjacency (8) → adjacent; else same-file.

import type { FileRanges } from "../deliverables/patch-ranges.js";

export type OverlapGrade = "same-file" | "adjacent" | "contested";
export interface OverlapFinding {
  path: string;
  grade: OverlapGrade;
  otherWorker: string;
}

export const DEFAULT_ADJACENCY = 8;

/** The pre-image path both patches are measured against: a created file by its new name, anything else by its old one. */
const keyOf = (f: FileRanges): string => (f.created ? f.path : (f.oldPath ?? f.path));

/** The pre-image paths a patch touches, as gradeOverlap pairs them: no finding is possible without a shared one. */
export function preimagePaths(files: FileRanges[]): string[] {
  return [...new Set(files.map(keyOf))];
}

interface Side {
  created: boolean;
  ranges: { start: number; end: number }[];
}

function bySharedPath(files: FileRanges[]): Map<string, Side> {
  const out = new Map<string, Side>();
  for (const f of files) {
    const key = keyOf(f);
    const prev = out.get(key);
    if (prev) {
      prev.created ||= f.created;
      prev.ranges.push(...f.ranges);
    } else out.set(key, { created: f.created, ranges: [...f.ranges] });
  }
  return out;
}

/** Old-file lines strictly between two ranges; 0 when they share or touch a line (an empty insertion range included). */
export function rangeGap(a: { start: number; end: number }, b: { start: number; end: number }): number {
  return Math.max(0, Math.max(a.start, b.start) - Math.min(a.end, b.end) - 1);
}

function gradeSide(mine: Side, theirs: Side, adjacency: number): OverlapGrade {
  if (mine.created && theirs.created) return "contested";
  if (mine.ranges.length === 0 || theirs.ranges.length === 0) return "same-file";
  let best = Infinity;
  for (const a of mine.ranges) {
    for (const b of theirs.ranges) {
      best = Math.min(best, rangeGap(a, b));
      if (best === 0) return "contested";
    }
  }
  return best <= adjacency ? "adjacent" : "same-file";
}

/** One finding per path both patches touch, in the order of `mine`. */
export function gradeOverlap(
  mine: FileRanges[],
  theirs: FileRanges[],
  otherWorker: string,
  adjacency = DEFAULT_ADJACENCY,
): OverlapFinding[] {
  const other = bySharedPath(theirs);
  const findings: OverlapFinding[] = [];
  for (const [path, side] of bySharedPath(mine)) {
    const peer = other.get(path);
    if (peer) findings.push({ path, grade: gradeSide(side, peer, adjacency), otherWorker });
  }
  return findings;
}

/** True when any finding is stronger than same-file (the verdict card's contested line). */
export function isContestedOverlap(findings: OverlapFinding[]): boolean {
  return findings.some((f) => f.grade !== "same-file");
}
