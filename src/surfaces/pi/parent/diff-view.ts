// The frozen patch inside pi: one file at a time, coloured and scrollable, with the file list and +/− counts above.
// `]`/`[` move between files; Esc hands the screen back to pi exactly as it was (nothing is written to stdout).

import { matchesKey, type Component, type TUI } from "@mariozechner/pi-tui";
import type { DiffFile } from "../../../domain/deliverables/diff-files.js";
import { diffFileLines, fileListLines } from "./diff-lines.js";
import type { Paint } from "./paint.js";
import { isClose, ScrollBox } from "./scroll-box.js";

export interface DiffViewInput {
  /** The exact version (or stored record) whose frozen patch this is. */
  ref: string;
  files: DiffFile[];
  file?: number;
}

export function createDiffView(tui: TUI, paint: Paint, input: DiffViewInput, done: () => void): Component {
  const { files } = input;
  let current = Math.min(Math.max(0, input.file ?? 0), files.length - 1);
  const adds = files.reduce((n, f) => n + f.additions, 0);
  const dels = files.reduce((n, f) => n + f.deletions, 0);
  const move = (by: number) => {
    const next = Math.min(Math.max(0, current + by), files.length - 1);
    if (next === current) return;
    current = next;
    box.offset = 0;
    box.invalidate();
    tui.requestRender();
  };
  const box: ScrollBox = new ScrollBox(
    tui,
    paint,
    {
      title: () => `${paint.fg("accent", "docket · diff")} ${input.ref} · ${files.length} file${files.length === 1 ? "" : "s"} ${paint.fg("toolDiffAdded", `+${adds}`)} ${paint.fg("toolDiffRemoved", `−${dels}`)}`,
      head: () => fileListLines(files, current, paint),
      body: () => diffFileLines(files[current]!, paint),
      legend: () => ["] next file", "[ previous file", "j/k scroll", "space/b page", "g/G top/end", "esc close"],
      footer: () => `file ${current + 1}/${files.length}`,
    },
    (data) => {
      if (isClose(data)) {
        done();
        return true;
      }
      if (matchesKey(data, "]") || matchesKey(data, "tab")) move(1);
      else if (matchesKey(data, "[") || matchesKey(data, "shift+tab")) move(-1);
      else return false;
      return true;
    },
  );
  return box;
}
