// A frozen patch as per-file review data: status, modes, binary, blob ids, hunks with numbered lines
// (docs/decisions/immutable-deliverables.md). Pure text parsing of the sidecar's `git diff` body; every surface renders
// the same files the same way.

import { readGitHeader, readPath, stripPrefix } from "./patch-paths.js";

export type DiffLineKind = "context" | "add" | "del";

export interface DiffLine {
  kind: DiffLineKind;
  /** Line number in the old file (context and deleted lines). */
  oldNo: number | null;
  /** Line number in the new file (context and added lines). */
  newNo: number | null;
  text: string;
  /** git's `\ No newline at end of file` followed this line. */
  noEol?: true;
}

export interface DiffHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** The function or section name git printed after the second `@@`. */
  section: string;
  lines: DiffLine[];
}

export type DiffStatus = "added" | "deleted" | "modified" | "renamed" | "copied";

export interface DiffFile {
  /** Position in the patch; the stable handle every surface uses for this file (paths are untrusted text). */
  index: number;
  path: string;
  oldPath: string;
  status: DiffStatus;
  /** Old and new mode when they differ (or the mode of an added/deleted file in `mode.new`/`mode.old`). */
  mode: { old: string | null; new: string | null };
  modeChanged: boolean;
  binary: boolean;
  /** Blob ids from the `index` line (abbreviated or full, as git printed them). */
  oldBlob: string | null;
  newBlob: string | null;
  /** 100 for an exact rename (same blob), otherwise git's similarity index when it printed one. */
  similarity: number | null;
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
  /** Frozen as a git binary patch though text at the base and after it: shown decoded, with a warning (shown-patch.ts). */
  frozenAsBinary?: true;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;
const NULL_BLOB = /^0+$/;

function emptyFile(index: number, oldPath: string, newPath: string): DiffFile {
  return {
    index,
    path: newPath,
    oldPath,
    status: "modified",
    mode: { old: null, new: null },
    modeChanged: false,
    binary: false,
    oldBlob: null,
    newBlob: null,
    similarity: null,
    additions: 0,
    deletions: 0,
    hunks: [],
  };
}

/** Parses every file section of a `git diff` body. Unknown lines are skipped; a malformed hunk ends early. */
export function parseDiffFiles(patch: string): DiffFile[] {
  return pairExactRenames(parseDiffSections(patch));
}

/** A file without its rows: each hunk's header, and how many lines its hunks hold (what a page shows of a file unopened). */
export interface DiffFileHead extends Omit<DiffFile, "hunks"> {
  hunks: Omit<DiffHunk, "lines">[];
  lineCount: number;
}

/** One entry per `diff --git` section, in order, as the patch holds them (deletion + addition never paired). */
export function parseDiffSections(patch: string): DiffFile[] {
  return parseSections(patch, undefined);
}

/** parseDiffSections without building any line: the same files, each with its hunks' headers and its line count. */
export function parseDiffHeads(patch: string): DiffFileHead[] {
  const counts: number[] = [];
  return parseSections(patch, counts).map(({ hunks, ...f }, k) => ({
    ...f,
    hunks: hunks.map(({ lines: _, ...h }) => h),
    lineCount: counts[k] ?? 0,
  }));
}

/** `counts`, when given, receives each file's line count and no line is kept. */
function parseSections(patch: string, counts: number[] | undefined): DiffFile[] {
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: DiffFile[] = [];
  let cur: DiffFile | undefined;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i++]!;
    if (line.startsWith("diff --git ")) {
      const h = readGitHeader(line.slice(11));
      cur = emptyFile(files.length, h?.oldPath ?? "", h?.newPath ?? h?.oldPath ?? "");
      files.push(cur);
      continue;
    }
    if (!cur) continue;
    if (line.startsWith("@@ ")) {
      const m = HUNK.exec(line);
      if (!m) continue;
      const hunk: DiffHunk = {
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        section: m[5] ?? "",
        lines: [],
      };
      i = readHunk(
        lines,
        i,
        hunk,
        cur,
        counts && ((n) => (counts[files.length - 1] = (counts[files.length - 1] ?? 0) + n)),
      );
      cur.hunks.push(hunk);
    } else if (!cur.binary) readHeaderLine(line, cur); // base85 lines of a binary patch are data, not headers
  }
  return files;
}

function readHeaderLine(line: string, f: DiffFile): void {
  if (line.startsWith("new file mode ")) {
    f.status = "added";
    f.mode.new = line.slice(14);
  } else if (line.startsWith("deleted file mode ")) {
    f.status = "deleted";
    f.mode.old = line.slice(18);
  } else if (line.startsWith("old mode ")) {
    f.mode.old = line.slice(9);
    f.modeChanged = true;
  } else if (line.startsWith("new mode ")) {
    f.mode.new = line.slice(9);
    f.modeChanged = true;
  } else if (line.startsWith("rename from ")) {
    f.oldPath = readPath(line.slice(12));
    f.status = "renamed";
  } else if (line.startsWith("rename to ")) f.path = readPath(line.slice(10));
  else if (line.startsWith("copy from ")) {
    f.oldPath = readPath(line.slice(10));
    f.status = "copied";
  } else if (line.startsWith("copy to ")) f.path = readPath(line.slice(8));
  else if (line.startsWith("similarity index ")) f.similarity = parseInt(line.slice(17), 10);
  else if (line.startsWith("index ")) {
    const m = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: (\d+))?/.exec(line);
    if (m) {
      f.oldBlob = NULL_BLOB.test(m[1]!) ? null : m[1]!;
      f.newBlob = NULL_BLOB.test(m[2]!) ? null : m[2]!;
      if (m[3] && f.mode.new === null && f.mode.old === null) f.mode = { old: m[3], new: m[3] };
    }
  } else if (line === "GIT binary patch" || (line.startsWith("Binary files ") && line.endsWith(" differ")))
    f.binary = true;
  else if (line.startsWith("--- ")) {
    const p = readPath(line.slice(4));
    if (p !== "/dev/null") f.oldPath = stripPrefix(p);
  } else if (line.startsWith("+++ ")) {
    const p = readPath(line.slice(4));
    if (p !== "/dev/null") f.path = stripPrefix(p);
  }
}

/** Reads one hunk body from `i`, numbering its lines (or, given `count`, only counting them); returns the index after it. */
function readHunk(lines: string[], i: number, hunk: DiffHunk, file: DiffFile, count?: (n: number) => void): number {
  const keep = count === undefined;
  let oldNo = hunk.oldStart;
  let newNo = hunk.newStart;
  let oldLeft = hunk.oldCount;
  let newLeft = hunk.newCount;
  let n = 0;
  while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
    const line = lines[i]!;
    const tag = line[0];
    if (tag === "\\") {
      if (keep) markNoEol(hunk);
      i++;
      continue;
    }
    if (tag === " " || line === "") {
      if (keep) hunk.lines.push({ kind: "context", oldNo, newNo, text: line.slice(1) });
      oldNo++;
      newNo++;
      oldLeft--;
      newLeft--;
    } else if (tag === "-") {
      if (keep) hunk.lines.push({ kind: "del", oldNo, newNo: null, text: line.slice(1) });
      oldNo++;
      oldLeft--;
      file.deletions++;
    } else if (tag === "+") {
      if (keep) hunk.lines.push({ kind: "add", oldNo: null, newNo, text: line.slice(1) });
      newNo++;
      newLeft--;
      file.additions++;
    } else break;
    n++;
    i++;
  }
  while (i < lines.length && lines[i]!.startsWith("\\")) {
    if (keep) markNoEol(hunk);
    i++;
  }
  count?.(n);
  return i;
}

function markNoEol(hunk: DiffHunk): void {
  const last = hunk.lines.at(-1);
  if (last) last.noEol = true;
}

const sameBlob = (a: string | null, b: string | null): boolean => {
  if (!a || !b) return false;
  const n = Math.min(a.length, b.length);
  return n >= 7 && a.slice(0, n) === b.slice(0, n);
};

/**
 * The sidecar is captured with `--no-renames`, so a moved file is a deletion plus an addition. A deleted file whose
 * blob is exactly an added file's blob is shown as one exact rename (mode change kept); anything edited stays apart.
 */
export function pairExactRenames(files: DiffFile[]): DiffFile[] {
  const added = files.filter((f) => f.status === "added" && f.newBlob !== null);
  const taken = new Set<DiffFile>();
  const merged = new Map<DiffFile, DiffFile>();
  for (const del of files) {
    if (del.status !== "deleted" || del.oldBlob === null) continue;
    const add = added.find((a) => !taken.has(a) && sameBlob(a.newBlob, del.oldBlob));
    if (!add) continue;
    taken.add(add);
    merged.set(del, {
      ...add,
      status: "renamed",
      oldPath: del.oldPath,
      oldBlob: del.oldBlob,
      similarity: 100,
      additions: 0,
      deletions: 0,
      hunks: [],
      mode: { old: del.mode.old, new: add.mode.new },
      modeChanged: del.mode.old !== add.mode.new,
    });
  }
  const out: DiffFile[] = [];
  for (const f of files) {
    if (taken.has(f)) continue;
    out.push(merged.get(f) ?? f);
  }
  return out.map((f, index) => ({ ...f, index }));
}

/** Lines a reviewer reads in this file (hunk lines), for sizing and collapsing decisions. */
export const diffLineCount = (f: DiffFile): number => f.hunks.reduce((n, h) => n + h.lines.length, 0);

/**
 * Unchanged old-file lines hidden between hunks, keyed by the hunk they precede (`hunks.length` = after the last).
 * `oldTo: null` means "to the end of the old file", whose length the patch does not say.
 */
export interface ContextGap {
  before: number;
  oldFrom: number;
  oldTo: number | null;
  newFrom: number;
}

export function contextGaps(f: DiffFile): ContextGap[] {
  if (f.status === "added" || f.binary || f.hunks.length === 0) return [];
  const gaps: ContextGap[] = [];
  let oldNext = 1;
  let newNext = 1;
  f.hunks.forEach((h, k) => {
    const oldStart = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
    if (oldStart > oldNext) gaps.push({ before: k, oldFrom: oldNext, oldTo: oldStart - 1, newFrom: newNext });
    oldNext = oldStart + h.oldCount;
    newNext = (h.newCount === 0 ? h.newStart + 1 : h.newStart) + h.newCount;
  });
  if (f.status !== "deleted" && !reachesEndOfFile(f.hunks))
    gaps.push({ before: f.hunks.length, oldFrom: oldNext, oldTo: null, newFrom: newNext });
  return gaps;
}

const leadingContext = (h: DiffHunk): number => {
  const i = h.lines.findIndex((l) => l.kind !== "context");
  return i === -1 ? h.lines.length : i;
};

/**
 * The last hunk shows the old file to its end, so there is no rest to offer: its old side ends without a newline, or it
 * has fewer trailing context lines than the patch's context width. The width is a hunk's leading context where lines
 * precede it (git shows the full width there); with no such hunk, git's default of 3.
 */
function reachesEndOfFile(hunks: readonly DiffHunk[]): boolean {
  const last = hunks[hunks.length - 1]!;
  if (last.lines.some((l) => l.noEol && l.kind !== "add")) return true;
  const measured = hunks.find((h) => (h.lines[0]?.oldNo ?? 1) > 1);
  const width = measured ? leadingContext(measured) : 3;
  const trailing = [...last.lines].reverse().findIndex((l) => l.kind !== "context");
  return (trailing === -1 ? last.lines.length : trailing) < width;
}
