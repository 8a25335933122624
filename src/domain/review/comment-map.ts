// A comment written on one version, found again in the next version's frozen patch: where its lines still exist
// (the same text on the same side of the same file), or "outdated" where they do not (the next version answers them).

import type { DiffFile } from "../deliverables/diff-files.js";
import { fileOfAnchor, lineOn, sideLines, type CommentAnchor } from "./comment-anchor.js";

export type MappedAnchor = { status: "current"; anchor: CommentAnchor } | { status: "outdated"; reason: string };

/**
 * Maps `a` (on the patch `before`) into the patch `after`. A whole-file comment stays while the file is in the patch;
 * a line range stays where the same run of lines (same text, same side) is shown in one hunk of the file, the run
 * nearest the old position winning. Anything else is outdated: the lines changed, or left the patch.
 */
export function mapAnchor(before: readonly DiffFile[], after: readonly DiffFile[], a: CommentAnchor): MappedAnchor {
  const next = fileOfAnchor(after, a.file, a.side);
  if (!next) return { status: "outdated", reason: `${a.file} is no longer in the patch` };
  const file = a.side === "old" ? next.oldPath : next.path;
  if (a.start === null) return { status: "current", anchor: { ...a, file } };
  const prev = fileOfAnchor(before, a.file, a.side);
  const wanted = prev
    ? sideLines(prev, a.side)
        .filter((l) => inRange(lineOn(l, a.side)!, a))
        .map((l) => l.text)
    : [];
  if (wanted.length === 0) return { status: "outdated", reason: "its lines are not in the earlier patch" };
  let best: number | undefined;
  for (const h of next.hunks) {
    const lines = h.lines.filter((l) => lineOn(l, a.side) !== null);
    for (let i = 0; i + wanted.length <= lines.length; i++) {
      if (!wanted.every((t, k) => lines[i + k]!.text === t)) continue;
      const start = lineOn(lines[i]!, a.side)!;
      if (best === undefined || Math.abs(start - a.start) < Math.abs(best - a.start)) best = start;
    }
  }
  if (best === undefined) return { status: "outdated", reason: "its lines changed" };
  return { status: "current", anchor: { file, side: a.side, start: best, end: best + (a.end! - a.start) } };
}

const inRange = (n: number, a: CommentAnchor): boolean => n >= a.start! && n <= a.end!;
