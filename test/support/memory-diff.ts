// The in-memory git's patches: a line diff of two file maps in git's own shape (`diff --git` sections, blob ids,
// three lines of context), read back with the domain's parser and applied all-or-nothing, forward or in reverse.

import { createHash } from "node:crypto";
import { parseDiffSections, type DiffFile, type DiffHunk } from "../../src/domain/deliverables/diff-files.js";
import type { GitReading } from "../../src/domain/deliverables/patch-integrity.js";
import type { PatchProblem } from "../../src/substrate/git/promote.js";

/** A tree of text files: path → content. */
export type Files = Map<string, string>;

/** git's blob id of a text (sha1 over `blob <size>\0<bytes>`), so `index` lines and readBlobAt agree as in git. */
export function blobId(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Lines with their newline kept: a last line without one differs from the same line with one, as in git. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

type Op = { tag: " " | "-" | "+"; line: string };

/** The edit script of a longest common subsequence (small files only: quadratic, which a test never notices). */
function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ tag: " ", line: a[i++]! });
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) ops.push({ tag: "-", line: a[i++]! });
    else ops.push({ tag: "+", line: b[j++]! });
  }
  while (i < a.length) ops.push({ tag: "-", line: a[i++]! });
  while (j < b.length) ops.push({ tag: "+", line: b[j++]! });
  return ops;
}

const CONTEXT = 3;

function emit(op: Op): string {
  const text = op.line.endsWith("\n") ? op.line : `${op.line}\n\\ No newline at end of file\n`;
  return `${op.tag}${text}`;
}

/** The hunks of an edit script: each change with three lines of context, touching hunks merged. */
function hunksOf(ops: readonly Op[]): string {
  const groups: [number, number][] = [];
  ops.forEach((op, k) => {
    if (op.tag === " ") return;
    const lo = Math.max(0, k - CONTEXT);
    const hi = Math.min(ops.length - 1, k + CONTEXT);
    const last = groups.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else groups.push([lo, hi]);
  });
  const before = (lo: number, tag: "-" | "+") => ops.slice(0, lo).filter((o) => o.tag === " " || o.tag === tag);
  return groups
    .map(([lo, hi]) => {
      const span = ops.slice(lo, hi + 1);
      const oldCount = span.filter((o) => o.tag !== "+").length;
      const newCount = span.filter((o) => o.tag !== "-").length;
      const old = before(lo, "-");
      const range = (start: number, count: number) => `${start + (count > 0 ? 1 : 0)}${count === 1 ? "" : `,${count}`}`;
      const head = `@@ -${range(old.length, oldCount)} +${range(before(lo, "+").length, newCount)} @@${heading(old)}`;
      return `${head}\n${span.map(emit).join("")}`;
    })
    .join("");
}

/** git's default hunk heading: the nearest old line above the hunk that starts with a letter, `_` or `$` (80 bytes). */
function heading(above: readonly Op[]): string {
  const line = [...above].reverse().find((o) => /^[A-Za-z_$]/.test(o.line))?.line;
  return line === undefined ? "" : ` ${line.slice(0, 80).trimEnd()}`;
}

/** A path git would print as it is (no quoting): the in-memory git refuses any other rather than quote it. */
function plainPath(path: string): string {
  if (/^[^\s"\\\u0000-\u001f]+$/.test(path)) return path;
  throw new Error(`${JSON.stringify(path)} needs quoting, which is not in the in-memory git`);
}

function fileSection(path: string, old: string | undefined, now: string | undefined): string {
  if (old === now) return "";
  const head = `diff --git a/${plainPath(path)} b/${path}\n`;
  const oldId = old === undefined ? "0000000" : blobId(old).slice(0, 7);
  const newId = now === undefined ? "0000000" : blobId(now).slice(0, 7);
  const body = hunksOf(lineOps(linesOf(old ?? ""), linesOf(now ?? "")));
  const index = `index ${oldId}..${newId}`;
  const sides = (from: string, to: string) => (body === "" ? "" : `--- ${from}\n+++ ${to}\n${body}`);
  if (old === undefined) return `${head}new file mode 100644\n${index}\n${sides("/dev/null", `b/${path}`)}`;
  if (now === undefined) return `${head}deleted file mode 100644\n${index}\n${sides(`a/${path}`, "/dev/null")}`;
  return `${head}${index} 100644\n${sides(`a/${path}`, `b/${path}`)}`;
}

/** The unified patch that turns `before` into `after`, files in path order (`git diff --no-renames` shape). */
export function diffFiles(before: Files, after: Files): string {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths.map((p) => fileSection(p, before.get(p), after.get(p))).join("");
}

/** What `git apply --numstat --summary` would print, read with the domain's parser (no second, independent reader). */
export function readingOf(patch: string): GitReading {
  const sections = parseDiffSections(patch);
  return {
    numstat: sections.map((f) => ({
      path: f.status === "deleted" ? f.oldPath : f.path,
      additions: f.binary ? null : f.additions,
      deletions: f.binary ? null : f.deletions,
    })),
    summary: sections
      .map((f) => {
        if (f.status === "added") return ` create mode ${f.mode.new} ${f.path}\n`;
        return f.status === "deleted" ? ` delete mode ${f.mode.old} ${f.oldPath}\n` : "";
      })
      .join(""),
  };
}

export type Applied = { ok: true; files: Files } | { ok: false; problems: PatchProblem[] };

/** The patch applied to a copy of `files` (reversed: post-image to pre-image): all of it, or none and the problems. */
export function applyTo(files: Files, patch: string, reverse = false): Applied {
  const out = new Map(files);
  const problems = parseDiffSections(patch).flatMap((f) => applyFile(out, f, reverse) ?? []);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, files: out };
}

function applyFile(files: Files, f: DiffFile, reverse: boolean): PatchProblem | undefined {
  const path = f.status === "deleted" ? f.oldPath : f.path;
  if (f.binary) return { path, reason: "a binary patch, which is not in the in-memory git" };
  const creates = f.status === (reverse ? "deleted" : "added");
  const deletes = f.status === (reverse ? "added" : "deleted");
  const current = files.get(path);
  if (creates && current !== undefined) return { path, reason: "already exists in working directory" };
  if (!creates && current === undefined) return { path, reason: "No such file or directory" };
  const lines = linesOf(current ?? "");
  let delta = 0;
  for (const h of f.hunks) {
    const { from, to, start } = sidesOf(h, reverse);
    const at = findLines(lines, from, start - (from.length > 0 ? 1 : 0) + delta);
    if (at === -1)
      return { path, reason: `your checkout's lines around line ${start} differ from the patch's context` };
    lines.splice(at, from.length, ...to);
    delta += to.length - from.length;
  }
  if (deletes && lines.length > 0) return { path, reason: "the file holds more than the patch deletes" };
  if (deletes) files.delete(path);
  else files.set(path, lines.join(""));
  return undefined;
}

function sidesOf(h: DiffHunk, reverse: boolean): { from: string[]; to: string[]; start: number } {
  const text = (l: DiffHunk["lines"][number]) => `${l.text}${l.noEol ? "" : "\n"}`;
  const old = h.lines.filter((l) => l.kind !== "add").map(text);
  const now = h.lines.filter((l) => l.kind !== "del").map(text);
  return reverse ? { from: now, to: old, start: h.newStart } : { from: old, to: now, start: h.oldStart };
}

/** Where `seq` stands in `lines`: at `expected`, else at the nearest offset (as git apply allows); -1 if nowhere. */
function findLines(lines: readonly string[], seq: readonly string[], expected: number): number {
  const fits = (at: number) => at >= 0 && at + seq.length <= lines.length && seq.every((l, k) => lines[at + k] === l);
  if (seq.length === 0) return Math.min(Math.max(expected, 0), lines.length);
  for (let d = 0; d <= lines.length; d++) {
    if (fits(expected - d)) return expected - d;
    if (fits(expected + d)) return expected + d;
  }
  return -1;
}
