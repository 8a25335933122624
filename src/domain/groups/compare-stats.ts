// What a comparison of candidates derives from their frozen change sets alone: size per candidate, the files only it
// touched, and which files each pair of candidates both changed. Pure: the same stats on every surface.

export interface CandidateFiles {
  worker: string;
  /** Its current version's frozen files; null while it has no version (or its version changed nothing). */
  files: readonly { path: string; additions: number; deletions: number }[] | null;
  hunks: number;
}

export interface CandidateStats {
  worker: string;
  files: number;
  additions: number;
  deletions: number;
  hunks: number;
  /** Paths no other candidate's current version touched, sorted. */
  onlyHere: string[];
}

export interface CandidateOverlap {
  a: string;
  b: string;
  /** Paths both changed, sorted. */
  files: string[];
}

export interface CompareStats {
  candidates: CandidateStats[];
  /** Every pair (in candidate order) that changed at least one file in common. */
  overlaps: CandidateOverlap[];
}

/** Linear in the total number of files: each path is counted once per candidate that touched it. */
export function resolveCompareStats(candidates: readonly CandidateFiles[]): CompareStats {
  const touchedBy = new Map<string, number>();
  const sets = candidates.map((c) => new Set((c.files ?? []).map((f) => f.path)));
  for (const set of sets) for (const path of set) touchedBy.set(path, (touchedBy.get(path) ?? 0) + 1);
  const stats = candidates.map((c, i) => {
    const files = c.files ?? [];
    return {
      worker: c.worker,
      files: sets[i]!.size,
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
      hunks: c.files === null ? 0 : c.hunks,
      onlyHere: [...sets[i]!].filter((p) => touchedBy.get(p) === 1).sort(),
    };
  });
  const overlaps: CandidateOverlap[] = [];
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const [small, large] = sets[i]!.size <= sets[j]!.size ? [sets[i]!, sets[j]!] : [sets[j]!, sets[i]!];
      const files = [...small].filter((p) => large.has(p)).sort();
      if (files.length > 0) overlaps.push({ a: candidates[i]!.worker, b: candidates[j]!.worker, files });
    }
  }
  return { candidates: stats, overlaps };
}
