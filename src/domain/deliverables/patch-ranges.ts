// Old-file (pre-image) line ranges touched by a frozen git patch, per path, for overlap grading.
// Pure text parsing of `git diff` output (renames, copies, binary, /dev/null, C-quoted paths); never throws.

import { readGitHeader, readPath, stripPrefix } from "./patch-paths.js";

/**
 * One file section of a patch. `ranges` are the old-file lines each run of changes actually touches (context lines
 * excluded, so `-10,7` with one changed line gives one one-line range). A pure insertion after old line k is the empty
 * range `{start: k + 1, end: k}`. Created and binary files have no ranges. `oldPath` is set for renames and copies.
 */
export interface FileRanges {
  path: string;
  created: boolean;
  deleted: boolean;
  ranges: { start: number; end: number }[];
  oldPath?: string;
  binary?: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

interface Section {
  oldPath?: string;
  newPath?: string;
  created: boolean;
  deleted: boolean;
  binary: boolean;
  renamed: boolean;
  ranges: { start: number; end: number }[];
}

function toFileRanges(s: Section): FileRanges | undefined {
  const path = s.deleted ? (s.oldPath ?? s.newPath) : (s.newPath ?? s.oldPath);
  if (path === undefined || path === "") return undefined;
  const out: FileRanges = { path, created: s.created, deleted: s.deleted, ranges: s.created ? [] : s.ranges };
  if (s.renamed && s.oldPath !== undefined && s.oldPath !== path) out.oldPath = s.oldPath;
  if (s.binary) out.binary = true;
  return out;
}

/** Parses every file section of a `git diff` / `git format-patch` body; unknown lines are skipped. */
export function parsePatchRanges(patch: string): FileRanges[] {
  const lines = patch.split(/\r?\n/);
  const files: FileRanges[] = [];
  let cur: Section | undefined;
  const flush = (): void => {
    if (cur) {
      const f = toFileRanges(cur);
      if (f) files.push(f);
    }
    cur = undefined;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    i++;
    if (line.startsWith("diff --git ")) {
      flush();
      const h = readGitHeader(line.slice(11));
      cur = {
        oldPath: h?.oldPath,
        newPath: h?.newPath,
        created: false,
        deleted: false,
        binary: false,
        renamed: false,
        ranges: [],
      };
      continue;
    }
    if (cur === undefined) {
      if (!line.startsWith("--- ")) continue;
      cur = { created: false, deleted: false, binary: false, renamed: false, ranges: [] }; // a plain unified diff
    }
    if (line.startsWith("new file mode")) cur.created = true;
    else if (line.startsWith("deleted file mode")) cur.deleted = true;
    else if (line.startsWith("rename from ") || line.startsWith("copy from ")) {
      cur.oldPath = readPath(line.slice(line.indexOf(" from ") + 6));
      cur.renamed = true;
    } else if (line.startsWith("rename to ") || line.startsWith("copy to "))
      cur.newPath = readPath(line.slice(line.indexOf(" to ") + 4));
    else if (line.startsWith("Binary files ") || line === "GIT binary patch") cur.binary = true;
    else if (line.startsWith("--- ")) {
      const p = readPath(line.slice(4));
      if (p === "/dev/null") cur.created = true;
      else cur.oldPath = stripPrefix(p);
    } else if (line.startsWith("+++ ")) {
      const p = readPath(line.slice(4));
      if (p === "/dev/null") cur.deleted = true;
      else cur.newPath = stripPrefix(p);
    } else if (line.startsWith("@@ ")) {
      const m = HUNK.exec(line);
      if (m)
        i = readHunk(
          lines,
          i,
          Number(m[1]),
          m[2] === undefined ? 1 : Number(m[2]),
          m[4] === undefined ? 1 : Number(m[4]),
          cur.ranges,
        );
    }
  }
  flush();
  return files;
}

/** Walks one hunk body from `i`; appends the old-line runs it changes; returns the index after the hunk. */
function readHunk(
  lines: string[],
  i: number,
  oldStart: number,
  oldCount: number,
  newCount: number,
  ranges: { start: number; end: number }[],
): number {
  let oldLine = oldCount === 0 ? oldStart + 1 : oldStart;
  let oldLeft = oldCount;
  let newLeft = newCount;
  let run: { start: number; end: number } | undefined;
  const close = (): void => {
    if (run) ranges.push(run);
    run = undefined;
  };
  while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
    const line = lines[i]!;
    const tag = line[0];
    if (tag === "\\") {
      i++;
      continue;
    }
    if (tag === " " || line === "") {
      close();
      oldLine++;
      oldLeft--;
      newLeft--;
    } else if (tag === "-") {
      if (run) run.end = oldLine;
      else run = { start: oldLine, end: oldLine };
      oldLine++;
      oldLeft--;
    } else if (tag === "+") {
      if (!run) run = { start: oldLine, end: oldLine - 1 };
      newLeft--;
    } else break;
    i++;
  }
  close();
  while (i < lines.length && lines[i]!.startsWith("\\")) i++;
  return i;
}
