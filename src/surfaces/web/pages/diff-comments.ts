// Review comments on the page: each beside the last line it is about (drafts with edit/delete while the card is
// current, the previous version's comments where their lines still exist), and the card's list of them all.

import { fileOfAnchor, formatAnchor, type CommentAnchor } from "../../../domain/review/comment-anchor.js";
import type { DiffFile } from "../../../domain/deliverables/diff-files.js";
import type { CardComments, PreviousComment } from "../../../engine/review/card-comments.js";
import type { CommentView } from "../../../engine/review/comments.js";
import { html, type Html } from "../html.js";

/** One file's comments: by `side:lastLine`, and the whole-file ones. */
export interface FileNotes {
  lines: Map<string, Html[]>;
  whole: Html[];
}

export const lineKey = (side: "old" | "new", line: number | null): string => `${side}:${line}`;

function draftBox(c: CommentView, editable: boolean): Html {
  return html`<div class="cmt draft" data-comment="${c.id}"><p class="cmt-head"><code>${c.id}</code> <span class="pill">draft</span> ${formatAnchor(c.anchor)}</p><p class="cmt-text">${c.text}</p>${
    editable
      ? html`<div class="cmt-btns"><button type="button" class="cmt-edit-btn">Edit</button> <button type="button" class="cmt-del" data-comment="${c.id}">Delete</button></div><form class="cmt-edit" data-comment="${c.id}" hidden><textarea name="text" rows="3" required aria-label="edit ${c.id}">${c.text}</textarea><button type="submit">Save</button> <button type="button" class="cmt-cancel">Cancel</button></form>`
      : ""
  }</div>`;
}

function previousBox(c: PreviousComment, worker: string): Html {
  const where =
    c.mapped.status === "current"
      ? html`<span class="pill">still here</span>`
      : html`<span class="pill off">outdated</span> ${c.mapped.reason}`;
  return html`<div class="cmt prev" data-comment="${c.id}" data-status="${c.mapped.status}"><p class="cmt-head"><code>${c.id}</code> from v${c.version} · ${formatAnchor(c.anchor)} · ${where}</p><p class="cmt-text">${c.text}</p>${
    c.addressed !== null ? html`<p class="cmt-answer">↳ ${worker}: ${c.addressed}</p>` : ""
  }</div>`;
}

/** The comments shown inside each file's rows, keyed by file position. */
export function notesByFile(
  c: CardComments,
  files: readonly Pick<DiffFile, "index" | "path" | "oldPath">[],
  options: { worker: string; editable: boolean },
): Map<number, FileNotes> {
  const out = new Map<number, FileNotes>();
  const place = (anchor: CommentAnchor, box: Html) => {
    const f = fileOfAnchor(files, anchor.file, anchor.side);
    if (!f) return;
    let notes = out.get(f.index);
    if (!notes) out.set(f.index, (notes = { lines: new Map(), whole: [] }));
    if (anchor.start === null) notes.whole.push(box);
    else {
      const key = lineKey(anchor.side, anchor.end);
      notes.lines.set(key, [...(notes.lines.get(key) ?? []), box]);
    }
  };
  for (const p of c.previous) if (p.mapped.status === "current") place(p.mapped.anchor, previousBox(p, options.worker));
  for (const d of c.drafts) place(d.anchor, draftBox(d, options.editable && !d.outdated));
  return out;
}

/** The card's section: what the previous version's revise asked and how this version answers it, then the drafts. */
export function renderCommentsSection(c: CardComments, options: { worker: string }): Html {
  if (c.previous.length === 0 && c.drafts.length === 0) return html``;
  const prev = c.previous[0];
  return html`<section class="comments" id="comments"><h2>Comments</h2>${
    prev
      ? html`<h3>On v${prev.version} <span class="hint">sent with ${prev.decision}; this version answers them</span></h3><div class="cmt-list">${c.previous.map((p) => previousBox(p, options.worker))}</div>`
      : ""
  }${
    c.drafts.length > 0
      ? html`<h3>Drafts on this version <span class="hint">${c.drafts.length} · “Request changes” sends them as one revision</span></h3><ul class="cmt-drafts">${c.drafts.map((d) => html`<li data-listed="${d.id}"><code>${d.id}</code> ${formatAnchor(d.anchor)}: ${d.text}</li>`)}</ul>`
      : ""
  }</section>`;
}

/** The forms the page script clones to add a comment (it fills in numbers, never markup). */
export function commentTemplates(): Html {
  return html`<template id="cmt-line-form"><tr class="cmt-new"><td><form class="cmt-form"><p class="cmt-where"></p><label>Lines <input name="start" type="number" min="1" aria-label="first line"> – <input name="end" type="number" min="1" aria-label="last line"></label><textarea name="text" rows="3" required aria-label="comment"></textarea><div class="cmt-btns"><button type="submit" class="primary">Add comment</button> <button type="button" class="cmt-cancel">Cancel</button></div></form></td></tr></template><template id="cmt-file-form"><div class="cmt-new"><form class="cmt-form"><p class="cmt-where"></p><textarea name="text" rows="3" required aria-label="comment"></textarea><div class="cmt-btns"><button type="submit" class="primary">Add comment</button> <button type="button" class="cmt-cancel">Cancel</button></div></form></div></template>`;
}
