// The frozen patch inside pi: one file at a time, coloured and scrollable, with the file list and +/− counts above.
// `]`/`[` move between files, j/k move the cursor line; `c` asks to comment on the line under the cursor (`C`: the
// whole file) when the version takes comments; Esc hands the screen back to pi exactly as it was (nothing on stdout).

import { matchesKey, type Component, type TUI } from "@mariozechner/pi-tui";
import type { DiffFile } from "../../../domain/deliverables/diff-files.js";
import type { CommentSide } from "../../../domain/review/comment-anchor.js";
import { diffFileLines, fileListLines, type ViewerNote } from "./diff-lines.js";
import type { Paint } from "./paint.js";
import { isClose, ScrollBox } from "./scroll-box.js";

export interface DiffViewInput {
  /** The exact version (or stored record) whose frozen patch this is. */
  ref: string;
  files: DiffFile[];
  file?: number;
  /** Body row of the cursor and the scroll offset to reopen at. */
  cursor?: number;
  offset?: number;
  /** Comments to show under their lines, by file position. */
  notes?: ReadonlyMap<number, readonly ViewerNote[]>;
  /** The version takes comments (the current version of a worker): `c` and `C` are offered. */
  commentable?: boolean;
}

/** Closed (undefined), or asked to comment: where, and where the viewer was, to reopen it there. */
export interface DiffOutcome {
  comment: { file: number; side: CommentSide; line: number | null };
  cursor: number;
  offset: number;
}

export function createDiffView(
  tui: TUI,
  paint: Paint,
  input: DiffViewInput,
  done: (outcome?: DiffOutcome) => void,
): Component {
  const { files } = input;
  let current = Math.min(Math.max(0, input.file ?? 0), files.length - 1);
  let cursor = input.cursor ?? 0;
  let rendered = diffFileLines(files[current]!, paint, input.notes?.get(current));
  const adds = files.reduce((n, f) => n + f.additions, 0);
  const dels = files.reduce((n, f) => n + f.deletions, 0);
  const repaint = () => {
    box.invalidate();
    tui.requestRender();
  };
  const move = (by: number) => {
    const next = Math.min(Math.max(0, current + by), files.length - 1);
    if (next === current) return;
    current = next;
    rendered = diffFileLines(files[current]!, paint, input.notes?.get(current));
    cursor = 0;
    box.offset = 0;
    repaint();
  };
  const step = (by: number) => {
    cursor = Math.min(Math.max(0, cursor + by), Math.max(0, rendered.lines.length - 1));
    box.reveal(cursor);
    repaint();
  };
  const legend = [
    "] next file",
    "[ previous file",
    "j/k move",
    "space/b page",
    "g/G top/end",
    ...(input.commentable ? ["c comment on this line", "C comment on the file"] : []),
    "esc close",
  ];
  const box: ScrollBox = new ScrollBox(
    tui,
    paint,
    {
      title: () =>
        `${paint.fg("accent", "docket · diff")} ${input.ref} · ${files.length} file${files.length === 1 ? "" : "s"} ${paint.fg("toolDiffAdded", `+${adds}`)} ${paint.fg("toolDiffRemoved", `−${dels}`)}`,
      head: () => fileListLines(files, current, paint),
      body: () => rendered.lines.map((l, i) => (i === cursor ? `${paint.fg("accent", "▸")}${l}` : ` ${l}`)),
      legend: () => legend,
      footer: () => `file ${current + 1}/${files.length}`,
    },
    (data) => {
      if (isClose(data)) {
        done();
        return true;
      }
      if (matchesKey(data, "]") || matchesKey(data, "tab")) move(1);
      else if (matchesKey(data, "[") || matchesKey(data, "shift+tab")) move(-1);
      else if (matchesKey(data, "j") || matchesKey(data, "down")) step(1);
      else if (matchesKey(data, "k") || matchesKey(data, "up")) step(-1);
      else if (input.commentable && matchesKey(data, "shift+c"))
        done({ comment: { file: current, side: "new", line: null }, cursor, offset: box.offset });
      else if (input.commentable && matchesKey(data, "c")) {
        const target = rendered.targets[cursor];
        if (target) done({ comment: { file: current, ...target }, cursor, offset: box.offset });
      } else return false;
      return true;
    },
    input.offset ?? 0,
  );
  return box;
}
