// Where a review comment points in one frozen patch: a file, a side (old/new) and a line range, or the whole file.
// Valid lines are derived from the frozen patch itself; a line the patch does not show is a named refusal.

import type { DiffFile, DiffLine } from "../deliverables/diff-files.js";
import { refusal, usageError, validationError } from "../errors.js";

export const COMMENT_SIDES = ["new", "old"] as const;
export type CommentSide = (typeof COMMENT_SIDES)[number];

/** What the human wrote: `src/a.ts:10`, `src/a.ts:10-12`, or `src/a.ts` (the whole file). */
export interface CommentLocation {
  file: string;
  /** null: the whole file. */
  start: number | null;
  end: number | null;
}

/** A location checked against one frozen patch: the file's path as the patch names it, and the side. */
export interface CommentAnchor extends CommentLocation {
  side: CommentSide;
}

const LINE_SUFFIX = /^(.*):([0-9]{1,9})(?:-([0-9]{1,9}))?$/;

/** `path:N`, `path:N-M` or `path`; a range whose end is before its start is a usage error. */
export function parseCommentLocation(text: string): CommentLocation {
  const m = LINE_SUFFIX.exec(text);
  if (!m) {
    if (text.trim() === "")
      throw usageError(
        "bad-comment-location",
        "give the file and line as <file>:<line>[-<line>], or a file alone for a whole-file comment",
      );
    return { file: text, start: null, end: null };
  }
  const start = Number(m[2]);
  const end = m[3] === undefined ? start : Number(m[3]);
  if (m[1] === "" || start < 1 || end < start) {
    throw usageError("bad-comment-location", `"${text}" is not <file>:<line>[-<line>] with 1 ≤ first line ≤ last line`);
  }
  return { file: m[1]!, start, end };
}

/** A structured location (a page's click) checked like a typed one: whole lines, first ≤ last, or both null. */
export function checkLocation(l: CommentLocation): CommentLocation {
  const whole = l.start === null && l.end === null;
  const lines = Number.isSafeInteger(l.start) && Number.isSafeInteger(l.end) && l.start! >= 1 && l.end! >= l.start!;
  if (typeof l.file !== "string" || l.file === "" || (!whole && !lines)) {
    throw usageError(
      "bad-comment-location",
      "a comment names a file and either no lines (the whole file) or a first and last line with 1 ≤ first ≤ last",
    );
  }
  return { file: l.file, start: l.start, end: l.end };
}

/** `src/a.ts:10–12 (new)`, `src/a.ts (whole file)`: how every surface names an anchor. */
export function formatAnchor(a: CommentAnchor): string {
  if (a.start === null) return `${a.file} (whole file)`;
  return `${a.file}:${a.start}${a.end !== a.start ? `–${a.end}` : ""} (${a.side})`;
}

/** The patch's file this anchor names: by its new path, or (old side, renames) by its old path. */
export function fileOfAnchor<F extends Pick<DiffFile, "path" | "oldPath">>(
  files: readonly F[],
  file: string,
  side: CommentSide,
): F | undefined {
  return (
    files.find((f) => (side === "old" ? f.oldPath : f.path) === file) ??
    files.find((f) => f.path === file || f.oldPath === file)
  );
}

/** The line number of `l` on `side`, or null when the line is not on that side (an addition has no old line). */
export const lineOn = (l: DiffLine, side: CommentSide): number | null => (side === "new" ? l.newNo : l.oldNo);

/** The patch's lines on one side of a file, in order. */
export function sideLines(f: DiffFile, side: CommentSide): DiffLine[] {
  return f.hunks.flatMap((h) => h.lines.filter((l) => lineOn(l, side) !== null));
}

/** Runs of consecutive line numbers on one side (`8–14, 30–36`), for a refusal that says which lines may be used. */
export function lineRuns(lines: readonly DiffLine[], side: CommentSide): string {
  const runs: [number, number][] = [];
  for (const l of lines) {
    const n = lineOn(l, side)!;
    const last = runs.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(", ");
}

export interface AnchorInput {
  /** The exact version, for the refusal's words. */
  ref: string;
  /** The worker, for the advice. */
  worker: string;
  files: readonly DiffFile[];
  location: CommentLocation;
  side: CommentSide;
}

/**
 * The anchor in this frozen patch, or a refusal: the file is not in the patch, or a line of the range is not one the
 * patch shows on that side (a binary file, or the new side of a deleted file, shows none).
 */
export function resolveAnchor(input: AnchorInput): CommentAnchor {
  const { location, side } = input;
  const f = fileOfAnchor(input.files, location.file, side);
  if (!f) {
    throw refusal(
      "comment-file-not-in-patch",
      `"${location.file}" is not a file of ${input.ref}'s frozen patch; nothing changed`,
      `its files are listed by \`docket diff ${input.worker}\``,
    );
  }
  const file = side === "old" ? f.oldPath : f.path;
  if (location.start === null) return { file, side, start: null, end: null };
  const lines = sideLines(f, side);
  const shown = new Set(lines.map((l) => lineOn(l, side)));
  for (let n = location.start; n <= location.end!; n++) {
    if (shown.has(n)) continue;
    const range = location.end === location.start ? `line ${n}` : `line ${n} of ${location.start}–${location.end}`;
    throw refusal(
      "comment-outside-patch",
      `${range} (${side} side) of ${file} is not in ${input.ref}'s frozen patch${lines.length > 0 ? `, which shows ${side}-side lines ${lineRuns(lines, side)}` : `, which shows no ${side}-side lines of it`}; nothing changed`,
      `comment on a line the patch shows, or on the whole file: \`docket comment ${input.worker} ${file} <text>\``,
    );
  }
  return { file, side, start: location.start, end: location.end };
}

/** The anchored lines as the patch shows them (`+added`, `-removed`, ` context`); none for a whole-file comment. */
export function quotedLines(files: readonly DiffFile[], a: CommentAnchor): string[] {
  if (a.start === null) return [];
  const f = fileOfAnchor(files, a.file, a.side);
  if (!f) return [];
  return sideLines(f, a.side)
    .filter((l) => {
      const n = lineOn(l, a.side)!;
      return n >= a.start! && n <= a.end!;
    })
    .map((l) => `${l.kind === "add" ? "+" : l.kind === "del" ? "-" : " "}${l.text}`);
}

/** Comment text: not empty, at most `max` characters. */
export function checkCommentText(text: string, max = 10_000): string {
  if (text.trim() === "")
    throw validationError(
      "empty-comment",
      "a comment needs text saying what to change",
      "`docket comment <w> <file>:<line> <text>`",
    );
  if (text.length > max)
    throw validationError("comment-too-long", `a comment holds at most ${max} characters; this one has ${text.length}`);
  return text;
}
