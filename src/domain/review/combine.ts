// Combine's pure rules: conflict markers (found, relabelled by worker and task, never promoted), the diff3 form of a
// conflict git cannot write inline (binary, delete/modify), and the one-line summary of a dry merge.

/** A conflict marker line: seven `<`, `|` or `>` alone or before a label. `=======` is ordinary text and not matched. */
const MARKER = /^(?:<{7}|\|{7}|>{7})(?:[ \t].*)?$/;

/** 1-based numbers of the lines that are conflict markers. */
export function markerLines(text: string): number[] {
  const out: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (MARKER.test(line.replace(/\r$/, ""))) out.push(i + 1);
  });
  return out;
}

/** Marker lines of `text` that neither side's own version of the file had: only those are unresolved merge residue. */
export function residueLines(text: string, sides: readonly (string | null)[]): number[] {
  const own = new Set(
    sides.flatMap((s) => (s === null ? [] : s.split("\n").filter((l) => MARKER.test(l.replace(/\r$/, ""))))),
  );
  const lines = text.split("\n");
  return markerLines(text).filter((n) => !own.has(lines[n - 1]!.replace(/\r$/, "")));
}

export interface SideLabels {
  ours: string;
  theirs: string;
  base: string;
}

/** `w2 · add a per-tenant rate limit` (one line, at most 72 characters). */
export function sideLabel(worker: string, task: string): string {
  const t = task.replace(/\s+/g, " ").trim();
  const label = `${worker} · ${t}`;
  return label.length > 72 ? `${label.slice(0, 71)}…` : label;
}

export const BASE_LABEL = "base · what both started from";

/**
 * git labels markers with the commits it merged; those exact lines get the workers' labels instead. Only lines that
 * are git's own markers change (a marker-like line a worker wrote keeps its text).
 */
export function relabelMarkers(text: string, git: SideLabels, to: SideLabels): string {
  return text
    .split("\n")
    .map((line) => {
      if (line === `<<<<<<< ${git.ours}`) return `<<<<<<< ${to.ours}`;
      if (line === `>>>>>>> ${git.theirs}`) return `>>>>>>> ${to.theirs}`;
      if (line.startsWith("||||||| ") && git.base.startsWith(line.slice(8)) && line.length > 14)
        return `||||||| ${to.base}`;
      return line;
    })
    .join("\n");
}

/** One side of a conflict git could not write inline: its text, absent (deleted / never there), or binary. */
export type ConflictSide =
  | { kind: "text"; text: string }
  | { kind: "absent" }
  | { kind: "binary"; bytes: number; copy: string };

function sideBody(side: ConflictSide): string {
  if (side.kind === "text") return side.text === "" || side.text.endsWith("\n") ? side.text : `${side.text}\n`;
  return "";
}

function sideNote(side: ConflictSide): string {
  if (side.kind === "absent") return " (no such file on this side: deleted, or never there)";
  if (side.kind === "binary") return ` (binary, ${side.bytes} bytes: ${side.copy})`;
  return "";
}

/**
 * The diff3 form of a whole-file conflict: ours, base, theirs, each labelled. Keeping the file (edited, without
 * markers) keeps it; deleting the file deletes it; for a binary file, copy the side you want over it.
 */
export function wholeFileConflict(
  labels: SideLabels,
  sides: { ours: ConflictSide; base: ConflictSide; theirs: ConflictSide },
): string {
  return [
    `<<<<<<< ${labels.ours}${sideNote(sides.ours)}`,
    sideBody(sides.ours),
    `||||||| ${labels.base}${sideNote(sides.base)}`,
    sideBody(sides.base),
    "=======",
    sideBody(sides.theirs),
    `>>>>>>> ${labels.theirs}${sideNote(sides.theirs)}`,
    "",
  ]
    .join("\n")
    .replace(/\n\n+(?=(\|{7}|={7}|>{7}))/g, "\n");
}

export interface MergeSummary {
  clean: boolean;
  /** Files the merged change set holds (clean) or the contested files (conflicted). */
  files: number;
  /** Conflict regions (a whole-file conflict counts as one). */
  conflicts: number;
}

/** `merges clean, 2 files` or `2 conflicts in 1 file` — said on the card before anything is chosen. */
export function formatMergeSummary(s: MergeSummary): string {
  const files = `${s.files} file${s.files === 1 ? "" : "s"}`;
  return s.clean ? `merges clean, ${files}` : `${s.conflicts} conflict${s.conflicts === 1 ? "" : "s"} in ${files}`;
}

/**
 * Marker lines a combined patch adds that neither source patch added itself: merge residue, which must never be
 * frozen or promoted. Per file, in patch order; empty when the combined change set is free of residue.
 */
export function patchResidue(patch: string, sources: readonly string[]): { path: string; lines: string[] }[] {
  const added = (p: string): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    let file = "";
    for (const line of p.split("\n")) {
      if (line.startsWith("+++ ")) file = line.slice(4).replace(/^b\//, "");
      else if (line.startsWith("+") && MARKER.test(line.slice(1).replace(/\r$/, "")))
        out.set(file, [...(out.get(file) ?? []), line.slice(1)]);
    }
    return out;
  };
  const own = new Set(sources.flatMap((s) => [...added(s).values()].flat()));
  return [...added(patch)]
    .map(([path, lines]) => ({ path, lines: lines.filter((l) => !own.has(l)) }))
    .filter((f) => f.lines.length > 0);
}
