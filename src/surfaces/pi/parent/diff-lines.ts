// One file of a frozen patch as coloured lines for the pi diff viewer: hunks with old/new line numbers, added lines
// green, removed red, binary files, exact renames and mode changes said in words (the patch holds no text for them).

import type { DiffFile } from "../../../domain/deliverables/diff-files.js";
import type { CommentSide } from "../../../domain/review/comment-anchor.js";
import { fileStat, filePath, fileTags } from "./card-lines.js";
import { safe, type Paint } from "./paint.js";

/** The warning above a text file the worker froze as a binary patch: its lines are Docket's decoding. */
export const FROZEN_AS_BINARY = "the worker froze this text file as a binary patch: shown decoded";

/** A comment shown in the viewer under the last line it is about (or above the file's lines: a whole-file one). */
export interface ViewerNote {
  side: CommentSide;
  /** null: the whole file. */
  line: number | null;
  /** `cm3 draft`, `cm1 from v1`: who and what, already safe. */
  label: string;
  text: string;
}

/** The line a comment key would anchor to: the diff line at that body row (null for headers and notes). */
export type LineTarget = { side: CommentSide; line: number } | null;

export function diffFileLines(
  f: DiffFile,
  paint: Paint,
  notes: readonly ViewerNote[] = [],
): { lines: string[]; targets: LineTarget[] } {
  const out: string[] = [];
  const targets: LineTarget[] = [];
  const note = (n: ViewerNote) => out.push(paint.fg("accent", `  ▌ ${n.label}: `) + safe(n.text.replace(/\s+/g, " ")));
  const under = (side: CommentSide, line: number | null) => {
    if (line === null) return;
    for (const n of notes) if (n.side === side && n.line === line) note(n);
  };
  for (const n of notes) if (n.line === null) note(n);
  if (f.modeChanged) out.push(paint.fg("muted", `mode ${f.mode.old ?? "?"} → ${f.mode.new ?? "?"}`));
  if (f.frozenAsBinary) out.push(paint.fg("warning", `⚠ ${FROZEN_AS_BINARY}`));
  if (f.binary)
    out.push(paint.fg("muted", `binary file ${f.status}: its bytes are in the frozen patch and are not shown here`));
  else if (f.hunks.length === 0)
    out.push(
      paint.fg(
        "muted",
        f.status === "renamed" ? `renamed without changes (${f.similarity ?? 100}% similar)` : "no text changes",
      ),
    );
  const last = f.hunks.flatMap((h) => h.lines).reduce((n, l) => Math.max(n, l.oldNo ?? 0, l.newNo ?? 0), 0);
  const w = String(last).length;
  const num = (n: number | null) => (n === null ? " ".repeat(w) : String(n).padStart(w));
  for (const h of f.hunks) {
    out.push(
      paint.fg(
        "accent",
        `@@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@${h.section ? ` ${safe(h.section)}` : ""}`,
      ),
    );
    for (const l of h.lines) {
      const gutter = paint.fg("dim", `${num(l.oldNo)} ${num(l.newNo)} │`);
      const text = safe(l.text);
      const body =
        l.kind === "add"
          ? paint.fg("toolDiffAdded", `+${text}`)
          : l.kind === "del"
            ? paint.fg("toolDiffRemoved", `-${text}`)
            : paint.fg("toolDiffContext", ` ${text}`);
      while (targets.length < out.length) targets.push(null);
      out.push(`${gutter}${body}`);
      targets.push(l.kind === "del" ? { side: "old", line: l.oldNo! } : { side: "new", line: l.newNo! });
      if (l.noEol) out.push(paint.fg("muted", `${" ".repeat(2 * w + 2)} \\ no newline at end of file`));
      if (l.kind !== "add") under("old", l.oldNo);
      if (l.kind !== "del") under("new", l.newNo);
    }
  }
  while (targets.length < out.length) targets.push(null);
  return { lines: out, targets };
}

/** The file list above the diff: a window of `size` files around the current one, `▸` marking it. */
export function fileListLines(files: readonly DiffFile[], current: number, paint: Paint, size = 5): string[] {
  const start = Math.max(0, Math.min(current - Math.floor(size / 2), files.length - size));
  const shown = files.slice(start, start + size);
  const out = shown.map((f) => {
    const mark = f.index === current ? paint.fg("accent", "▸") : " ";
    const name = `${safe(filePath(f))}${fileTags(f)}`;
    return `${mark} ${fileStat(f, paint)} ${f.index === current ? paint.bold(name) : name}`;
  });
  if (files.length > size)
    out.push(paint.fg("muted", `  file ${current + 1} of ${files.length} · ] next · [ previous`));
  return out;
}
