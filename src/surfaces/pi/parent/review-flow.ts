// `/docket verdict [w]` and `/docket diff <w|ref>` inside pi's TUI: the card overlay, walked through the verdict queue
// when no worker is named, reopened on fresh data after every action; the diff viewer over the frozen patch.

import { parseDeliverableRef } from "../../../domain/deliverables/refs.js";
import type { DiffFile } from "../../../domain/deliverables/diff-files.js";
import { reviewView, type ReviewView } from "../../../engine/review/review-view.js";
import { verdictQueue } from "../../../engine/review/verdict.js";
import { recordShown } from "../../../engine/review/shown.js";
import type { Banner } from "./card-lines.js";
import { performCardIntent } from "./card-perform.js";
import { createCardView, type CardOutcome } from "./card-view.js";
import { createDiffView, type DiffOutcome } from "./diff-view.js";
import type { ViewerNote } from "./diff-lines.js";
import { cardCommentsOf } from "../../../engine/review/card-comments.js";
import { fileOfAnchor, type CommentAnchor } from "../../../domain/review/comment-anchor.js";
import { showOverlay, showRefusal, showResult, type ParentHost } from "./host.js";

/** Opens the card of `target` (`w3`: its current version, or an exact ref), or walks the queue when none is named. */
export async function openVerdict(host: ParentHost, start: { target?: string } = {}): Promise<void> {
  const walking = start.target === undefined;
  let queue = queueOf(host);
  let target = start.target ?? queue[0];
  if (target === undefined) {
    showResult(host, [
      "nothing needs judgment (no open questions, failures or unjudged ready versions in this project)",
    ]);
    return;
  }
  let current = target;
  let banner: Banner | undefined;
  const offsets = new Map<string, number>();
  for (;;) {
    let view: ReviewView;
    try {
      view = reviewView(host.engine(), target);
    } catch (error) {
      showRefusal(host, error);
      return;
    }
    current = view.card.worker;
    recordShown(host.engine(), [view.card.deliverable && { worker: view.card.worker, ...view.card.deliverable }], "pi");
    const index = queue.indexOf(current);
    const shown = {
      view,
      banner,
      offset: offsets.get(target) ?? 0,
      ...(index >= 0 ? { queue: { index, total: queue.length } } : {}),
    };
    const outcome = await showOverlay<CardOutcome>(host, (tui, paint, done) => createCardView(tui, paint, shown, done));
    offsets.set(target, outcome.offset);
    banner = undefined;
    const { intent } = outcome;
    if (intent.kind === "close") return;
    if (intent.kind === "diff") {
      await openDiffFiles(host, view.card.deliverable!.ref, view.files);
      continue;
    }
    if (intent.kind === "next" || intent.kind === "prev") {
      const to = queue[index + (intent.kind === "next" ? 1 : -1)];
      if (to === undefined)
        banner = {
          level: "info",
          text: intent.kind === "next" ? "this is the last card in the queue" : "this is the first card in the queue",
        };
      else target = current = to;
      continue;
    }
    banner = await performCardIntent(host, view, intent);
    if (banner?.level !== "info") continue;
    queue = queueOf(host);
    target = current; // after an action the card shows the worker's current version
    if (walking && !queue.includes(current)) {
      const next = queue[Math.min(Math.max(index, 0), queue.length - 1)];
      if (next === undefined) {
        showResult(host, ["the verdict queue is empty"]);
        return;
      }
      banner = { level: "info", text: `${banner.text}\nnext in the queue: ${next}` };
      target = current = next;
    }
  }
}

/** `/docket diff <w|ref> [--version N]`: the viewer over one exact frozen patch (a worker's version or a stored record). */
export async function openDiff(host: ParentHost, target: string, version?: number): Promise<void> {
  const { frozenPatchOf, shownFiles } = await import("../../../engine/review/frozen-patch.js");
  let files: DiffFile[];
  let ref: string;
  try {
    const r = frozenPatchOf(host.engine(), target, version);
    ref = r.deliverable.ref;
    if (r.worker) recordShown(host.engine(), [{ worker: r.worker, ...r.deliverable }], "pi");
    if (r.patch === "") {
      showResult(host, [
        r.changeSet
          ? `${ref} changed no files`
          : `${ref} has no change set (read-only worker, or a record without one)`,
      ]);
      return;
    }
    files = shownFiles(r);
  } catch (error) {
    showRefusal(host, error);
    return;
  }
  await openDiffFiles(host, ref, files);
}

/** The viewer, reopened where it was after each comment the human writes from it. */
async function openDiffFiles(host: ParentHost, ref: string, files: DiffFile[]): Promise<void> {
  if (files.length === 0) return;
  let at: { file?: number; cursor?: number; offset?: number } = {};
  for (;;) {
    const { notes, commentable } = viewerNotes(host, ref, files);
    const outcome = await showOverlay<DiffOutcome | undefined>(host, (tui, paint, done) =>
      createDiffView(tui, paint, { ref, files, notes, commentable, ...at }, done),
    );
    if (!outcome) return;
    at = { file: outcome.comment.file, cursor: outcome.cursor, offset: outcome.offset };
    const f = files[outcome.comment.file]!;
    const { side, line } = outcome.comment;
    const path = side === "old" ? f.oldPath : f.path;
    const text = (
      await host.ctx.ui.input(
        `Comment on ${line === null ? `${path} (whole file)` : `${path}:${line} (${side})`} of ${ref} (a draft; r on the card sends every draft):`,
      )
    )?.trim();
    if (!text) continue;
    try {
      const { addComment } = await import("../../../engine/review/comments.js");
      const location = { file: path, start: line, end: line };
      const c = addComment(host.engine(), { target: ref, location, side, text });
      showResult(host, [`${c.id} drafted on ${ref}`]);
    } catch (error) {
      showRefusal(host, error);
    }
  }
}

/** The comments shown in the viewer, and whether it takes new ones (the current version of a worker only). */
function viewerNotes(
  host: ParentHost,
  ref: string,
  files: readonly DiffFile[],
): { notes: Map<number, ViewerNote[]>; commentable: boolean } {
  const notes = new Map<number, ViewerNote[]>();
  if (!parseDeliverableRef(ref)) return { notes, commentable: false };
  const { comments, isCurrent } = cardCommentsOf(host.engine(), ref);
  const place = (anchor: CommentAnchor, label: string, text: string) => {
    const f = fileOfAnchor(files, anchor.file, anchor.side);
    if (f) notes.set(f.index, [...(notes.get(f.index) ?? []), { side: anchor.side, line: anchor.end, label, text }]);
  };
  for (const p of comments.previous)
    if (p.mapped.status === "current") place(p.mapped.anchor, `${p.id} from v${p.version}`, p.text);
  for (const d of comments.drafts) place(d.anchor, `${d.id} draft`, d.text);
  return { notes, commentable: isCurrent };
}

function queueOf(host: ParentHost): string[] {
  return verdictQueue(host.engine()).map((c) => c.worker);
}
