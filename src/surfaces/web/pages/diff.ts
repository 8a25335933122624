// The frozen diff as HTML: a file tree with per-file +/−, then each file unified or side by side, highlighted,
// with expandable context between hunks; large patches stay usable by collapsing files and chunking rows.

import {
  contextGaps,
  type DiffFile,
  type DiffFileHead,
  type DiffHunk,
  type DiffLine,
} from "../../../domain/deliverables/diff-files.js";
import type { ReviewFiles } from "../../../engine/review/review-files.js";
import { highlightLines, languageOf } from "../highlight.js";
import { escapeHtml, html, trusted, type Html } from "../html.js";
import { lineKey, type FileNotes } from "./diff-comments.js";

export type DiffMode = "unified" | "split";

/** Lines rendered with the page; past this budget files load when scrolled to. */
const INLINE_BUDGET = 3_000;
/** A file with more lines than this waits for a click (a generated file, a lockfile). */
const LARGE_FILE = 1_500;
/** Rows per chunk; each chunk is its own table so the browser skips laying out what is off screen. */
const CHUNK_ROWS = 200;

const STATUS_LABEL: Record<DiffFile["status"], string> = {
  added: "added",
  deleted: "deleted",
  modified: "modified",
  renamed: "renamed",
  copied: "copied",
};

const num = (n: number): string => n.toLocaleString("en-US");

export function renderFileTree(files: readonly DiffFileHead[]): Html {
  if (files.length === 0) return html``;
  return html`<nav class="tree" aria-label="changed files"><ol>${files.map((f) => html`<li><a href="#file-${f.index}" data-file="${f.index}" title="${f.path}"><span class="st st-${f.status}">${f.status[0]!.toUpperCase()}</span><span class="tp">${f.frozenAsBinary ? html`<span class="tw" title="frozen as binary">⚠ </span>` : ""}${f.path}</span>${f.binary ? html`<span class="tb">bin</span>` : html`<span class="plus">+${f.additions}</span><span class="minus">−${f.deletions}</span>`}</a></li>`)}</ol></nav>`;
}

function fileHeader(f: DiffFileHead, commentable: boolean): Html {
  const moved = f.status === "renamed" || f.status === "copied";
  return html`<header class="file-head"><button class="fold" type="button" aria-expanded="true" aria-label="fold file">▾</button><span class="st st-${f.status}">${STATUS_LABEL[f.status]}</span><span class="path">${moved ? html`<span class="old-path">${f.oldPath}</span> → ` : ""}${f.path}</span>${
    f.modeChanged ? html`<span class="mode">mode ${f.mode.old ?? "?"} → ${f.mode.new ?? "?"}</span>` : ""
  }${f.frozenAsBinary ? html`<span class="tw">frozen as binary</span>` : ""}${f.binary ? html`<span class="tb">binary</span>` : html`<span class="stat"><span class="plus">+${f.additions}</span> <span class="minus">−${f.deletions}</span></span>`}${
    commentable
      ? html`<button type="button" class="cmt-file-btn" title="comment on the whole file">Comment on file</button>`
      : ""
  }</header>`;
}

/** The warning beside a file the worker froze as a binary patch though it is text. */
const FROZEN_AS_BINARY =
  "The worker froze this text file as a binary patch. Docket shows the change decoded from the base and the file the patch makes; promoting applies the frozen bytes, which make exactly this change.";

/** Why a file has no rows, or undefined when it has some. */
function emptyNote(f: DiffFileHead): string | undefined {
  if (f.binary) return `Binary file ${f.status}; its content is not shown (the frozen patch carries it exactly).`;
  if (f.hunks.length > 0) return undefined;
  if (f.status === "renamed") return f.similarity === 100 ? "Renamed without changes." : "Renamed.";
  if (f.modeChanged) return "Only the file mode changed.";
  if (f.status === "added" || f.status === "deleted") return `Empty file ${f.status}.`;
  return "No line changes.";
}

export interface DiffSectionInput {
  /** Heads for every file; rows only for the files rendered inline. */
  files: ReviewFiles;
  /** `/card/w1/v/2`: fragment addresses hang off it. */
  base: string;
  mode: DiffMode;
  /** Comments shown beside their lines, by file position. */
  notes?: ReadonlyMap<number, FileNotes>;
  /** The human may add comments here (the card of the current version). */
  commentable?: boolean;
}

/** Every file: rendered inline while the budget lasts (only those files' rows are built), then collapsed (loaded on view, or on click when large). */
export function renderDiffSection(input: DiffSectionInput): Html {
  let budget = INLINE_BUDGET;
  const sections = input.files.heads.map((f) => {
    const lines = f.lineCount;
    const note = emptyNote(f);
    let body: Html;
    if (note) body = html`<p class="note">${note}</p>`;
    else if (lines > LARGE_FILE)
      body = html`<div class="load" data-url="${input.base}/file/${f.index}"><button type="button" class="load-btn">Load diff (${num(lines)} lines)</button></div>`;
    else if (lines > budget)
      body = html`<div class="load lazy" data-url="${input.base}/file/${f.index}"><button type="button" class="load-btn">Load diff (${num(lines)} lines)</button></div>`;
    else {
      budget -= lines;
      body = trusted(renderFileRows(input.files.file(f.index)!, input.base, input.mode, input.notes?.get(f.index)));
    }
    const whole = input.notes?.get(f.index)?.whole ?? [];
    const warning = f.frozenAsBinary ? html`<p class="note frozen-binary" role="note">⚠ ${FROZEN_AS_BINARY}</p>` : "";
    return html`<section class="file" id="file-${f.index}" data-file="${f.index}">${fileHeader(f, Boolean(input.commentable))}<div class="file-body">${warning}${whole.length > 0 ? html`<div class="cmt-whole">${whole}</div>` : ""}${body}</div></section>`;
  });
  return html`<div class="files" data-mode="${input.mode}">${sections}</div>`;
}

interface Row {
  /** One `<tr>` without its chunk. */
  html: string;
}

/** The rows of one file, in chunk tables (the body of a file fragment). */
export function renderFileRows(f: DiffFile, base: string, mode: DiffMode, notes?: FileNotes): string {
  const rows: Row[] = [];
  const gaps = new Map(contextGaps(f).map((g, k) => [g.before, { ...g, k }]));
  const cols = mode === "split" ? 4 : 3;
  const gapRow = (before: number): void => {
    const g = gaps.get(before);
    if (!g) return;
    const size =
      g.oldTo === null
        ? "the rest of the file"
        : `${num(g.oldTo - g.oldFrom + 1)} unchanged line${g.oldTo === g.oldFrom ? "" : "s"}`;
    rows.push({
      html: `<tr class="gap"><td colspan="${cols}"><button type="button" class="expand" data-url="${escapeHtml(`${base}/context/${f.index}/${g.k}`)}">↕ Show ${size}</button></td></tr>`,
    });
  };
  const language = languageOf(f.path);
  f.hunks.forEach((h, k) => {
    gapRow(k);
    const head = `@@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@`;
    rows.push({
      html: `<tr class="hunk"><td colspan="${cols}">${escapeHtml(head)}${h.section ? ` <span class="sec">${escapeHtml(h.section)}</span>` : ""}</td></tr>`,
    });
    const cells = highlightHunk(h, language);
    const noted = (out: Row[], old: DiffLine | undefined, neu: DiffLine | undefined): void => {
      if (!notes) return;
      const boxes = [
        ...(old?.oldNo != null ? (notes.lines.get(lineKey("old", old.oldNo)) ?? []) : []),
        ...(neu?.newNo != null ? (notes.lines.get(lineKey("new", neu.newNo)) ?? []) : []),
      ];
      if (boxes.length > 0)
        out.push({ html: `<tr class="cmt-row"><td colspan="${cols}">${boxes.map((b) => b.value).join("")}</td></tr>` });
    };
    if (mode === "unified") {
      for (let i = 0; i < h.lines.length; i++) {
        rows.push({ html: unifiedRow(h.lines[i]!, cells[i]!) });
        noted(rows, h.lines[i], h.lines[i]);
      }
    } else rows.push(...splitRows(h.lines, cells, noted));
  });
  gapRow(f.hunks.length);
  return chunked(rows, mode);
}

function chunked(rows: readonly Row[], mode: DiffMode): string {
  const cols =
    mode === "split"
      ? `<colgroup><col class="cn"><col class="cc"><col class="cn"><col class="cc"></colgroup>`
      : `<colgroup><col class="cn"><col class="cn"><col class="cc"></colgroup>`;
  let out = "";
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    // Only full chunks skip layout off screen: their placeholder height is known (CHUNK_ROWS fixed-height rows).
    out += `<div class="chunk${i + CHUNK_ROWS <= rows.length ? " full" : ""}"><table class="diff ${mode}">${cols}<tbody>`;
    for (const r of rows.slice(i, i + CHUNK_ROWS)) out += r.html;
    out += "</tbody></table></div>";
  }
  return out;
}

/** Highlighted HTML per hunk line: the old side (context + deleted) and the new side (context + added) as blocks. */
function highlightHunk(h: DiffHunk, language: string | undefined): string[] {
  const oldIdx: number[] = [];
  const newIdx: number[] = [];
  h.lines.forEach((l, i) => {
    if (l.kind !== "add") oldIdx.push(i);
    if (l.kind !== "del") newIdx.push(i);
  });
  const oldHtml = highlightLines(
    oldIdx.map((i) => h.lines[i]!.text),
    language,
  );
  const newHtml = highlightLines(
    newIdx.map((i) => h.lines[i]!.text),
    language,
  );
  const out: string[] = new Array(h.lines.length);
  newIdx.forEach((i, k) => (out[i] = newHtml[k]!));
  oldIdx.forEach((i, k) => {
    if (h.lines[i]!.kind === "del") out[i] = oldHtml[k]!;
  });
  return out;
}

const NOEOL = `<span class="noeol" title="no newline at end of file">⊘</span>`;
const KIND_CLASS: Record<DiffLine["kind"], string> = { context: "x", add: "a", del: "d" };

/** A line-number cell; its side and number let the page open a comment form on it. */
const numCell = (n: number | null, which: "old" | "new", extra = ""): string =>
  n === null ? `<td class="n${extra}"></td>` : `<td class="n${extra}" data-side="${which}" data-line="${n}">${n}</td>`;

function unifiedRow(l: DiffLine, code: string): string {
  return `<tr class="${KIND_CLASS[l.kind]}">${numCell(l.oldNo, "old")}${numCell(l.newNo, "new")}<td class="c">${code}${l.noEol ? NOEOL : ""}</td></tr>`;
}

function side(l: DiffLine | undefined, code: string | undefined, which: "old" | "new"): string {
  if (!l) return `<td class="n e"></td><td class="c e"></td>`;
  const k = KIND_CLASS[l.kind];
  return `${numCell(which === "old" ? l.oldNo : l.newNo, which, ` ${k}`)}<td class="c ${k}">${code}${l.noEol ? NOEOL : ""}</td>`;
}

/** Side by side: context on both sides; each run of deletions paired row by row with the additions after it. */
function splitRows(
  lines: readonly DiffLine[],
  cells: readonly string[],
  noted: (out: Row[], old: DiffLine | undefined, neu: DiffLine | undefined) => void,
): Row[] {
  const rows: Row[] = [];
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    if (l.kind === "context") {
      rows.push({ html: `<tr>${side(l, cells[i], "old")}${side(l, cells[i], "new")}</tr>` });
      noted(rows, l, l);
      i++;
      continue;
    }
    const dels: number[] = [];
    const adds: number[] = [];
    while (i < lines.length && lines[i]!.kind === "del") dels.push(i++);
    while (i < lines.length && lines[i]!.kind === "add") adds.push(i++);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const d = dels[k];
      const a = adds[k];
      rows.push({
        html: `<tr>${side(d === undefined ? undefined : lines[d], d === undefined ? undefined : cells[d], "old")}${side(a === undefined ? undefined : lines[a], a === undefined ? undefined : cells[a], "new")}</tr>`,
      });
      noted(rows, d === undefined ? undefined : lines[d], a === undefined ? undefined : lines[a]);
    }
  }
  return rows;
}

/** Expanded context lines as rows for one gap (inserted in place of the gap row by the page script). */
export function renderContextRows(input: {
  path: string;
  lines: readonly { oldNo: number; newNo: number; text: string }[];
  mode: DiffMode;
  more?: { url: string; rest: number };
}): string {
  const cells = highlightLines(
    input.lines.map((l) => l.text),
    languageOf(input.path),
  );
  let out = "";
  input.lines.forEach((l, i) => {
    const line: DiffLine = { kind: "context", oldNo: l.oldNo, newNo: l.newNo, text: l.text };
    out +=
      input.mode === "unified"
        ? unifiedRow(line, cells[i]!)
        : `<tr>${side(line, cells[i], "old")}${side(line, cells[i], "new")}</tr>`;
  });
  if (input.more && input.more.rest > 0) {
    out += `<tr class="gap"><td colspan="${input.mode === "split" ? 4 : 3}"><button type="button" class="expand" data-url="${escapeHtml(input.more.url)}">↕ Show ${num(input.more.rest)} more unchanged lines</button></td></tr>`;
  }
  return out;
}
