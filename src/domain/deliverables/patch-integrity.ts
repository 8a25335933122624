// The frozen patch checked against git's own reading of it: the files every surface shows must be exactly the files
// `git apply` reads, section for section, with the same counts, binary-ness and modes (trust only what you derived:
// docs/hostile-git.md).

import type { ChangeSetFile } from "./deliverable.js";
import { parseDiffSections, type DiffFile } from "./diff-files.js";

/** One NUL-terminated `git apply --numstat -z` record: counts are null for a binary file. */
export interface NumstatRecord {
  path: string;
  additions: number | null;
  deletions: number | null;
}

/** What `git apply --numstat --summary -z` printed for the patch. */
export interface GitReading {
  numstat: NumstatRecord[];
  /** The summary lines (` create mode 100644 a`, ` delete mode …`, ` mode change … => …`), newline-terminated. */
  summary: string;
}

export type PatchIntegrity = { ok: true; files: ChangeSetFile[]; hunks: number } | { ok: false; reason: string };

/** Splits `git apply --numstat --summary -z` output: numstat records (`a\tb\tpath\0`) first, then the summary text. */
export function parseGitReading(out: string): GitReading {
  const numstat: NumstatRecord[] = [];
  let at = 0;
  for (;;) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(out.slice(at, at + 64));
    if (!m) break;
    const start = at + m[0].length;
    const end = out.indexOf("\0", start);
    if (end === -1) break;
    numstat.push({
      path: out.slice(start, end),
      additions: m[1] === "-" ? null : Number(m[1]),
      deletions: m[2] === "-" ? null : Number(m[2]),
    });
    at = end + 1;
  }
  return { numstat, summary: out.slice(at) };
}

const SPECIAL: Record<string, "symlink" | "gitlink"> = { "120000": "symlink", "160000": "gitlink" };

/** The summary lines git prints for this section, given the section's own header lines. */
function expectedSummary(f: DiffFile): string[] {
  if (f.status === "added") return [` create mode ${f.mode.new} ${f.path}\n`];
  if (f.status === "deleted") return [` delete mode ${f.mode.old} ${f.oldPath}\n`];
  if (f.modeChanged) return [` mode change ${f.mode.old} => ${f.mode.new} ${f.path}\n`];
  return [];
}

/** A symlink's target or a gitlink's commit, read from the one line the section adds. */
function specialOf(f: DiffFile): ChangeSetFile["special"] {
  const mode = f.status === "deleted" ? f.mode.old : f.mode.new;
  const kind = mode ? SPECIAL[mode] : undefined;
  if (!kind || !mode) return undefined;
  const side = f.status === "deleted" ? "del" : "add";
  const line = f.hunks.flatMap((h) => h.lines).find((l) => l.kind === side)?.text ?? "";
  return { kind, mode, target: kind === "gitlink" ? line.replace(/^Subproject commit /, "commit ") : line };
}

/**
 * Checks the patch's sections against git's reading. A patch holding anything outside `diff --git` sections, a rename
 * or copy (a capture never makes one), a binary section carrying text hunks, or any file, count or mode that differs
 * from what git reads is refused with the first reason; otherwise the file list every surface shows, derived from git.
 */
export function resolvePatchIntegrity(patch: string, reading: GitReading): PatchIntegrity {
  if (patch === "")
    return reading.numstat.length === 0
      ? { ok: true, files: [], hunks: 0 }
      : { ok: false, reason: "the patch is empty, yet git reads files in it" };
  if (!patch.startsWith("diff --git "))
    return { ok: false, reason: "the patch holds text before its first diff --git section" };
  const sections = parseDiffSections(patch);
  const odd = sections.find((f) => f.status === "renamed" || f.status === "copied");
  if (odd)
    return {
      ok: false,
      reason: `section ${JSON.stringify(odd.path)} is a ${odd.status === "renamed" ? "rename" : "copy"}, which a capture never makes`,
    };
  if (sections.length !== reading.numstat.length) {
    return {
      ok: false,
      reason: `git reads ${reading.numstat.length} file${reading.numstat.length === 1 ? "" : "s"} in the patch, but it has ${sections.length} diff --git section${sections.length === 1 ? "" : "s"}`,
    };
  }
  const summary: string[] = [];
  for (let i = 0; i < sections.length; i++) {
    const f = sections[i]!;
    const g = reading.numstat[i]!;
    const path = f.status === "deleted" ? f.oldPath : f.path;
    if (g.path !== path)
      return {
        ok: false,
        reason: `section ${i + 1} names ${JSON.stringify(path)}, git reads ${JSON.stringify(g.path)}`,
      };
    if ((g.additions === null) !== f.binary)
      return {
        ok: false,
        reason: `${JSON.stringify(path)} is ${f.binary ? "binary" : "text"} in its section, ${f.binary ? "text" : "binary"} to git`,
      };
    if (f.binary && f.hunks.length > 0)
      return { ok: false, reason: `the binary section of ${JSON.stringify(path)} carries text hunks` };
    if (!f.binary && (g.additions !== f.additions || g.deletions !== f.deletions)) {
      return {
        ok: false,
        reason: `${JSON.stringify(path)} shows +${f.additions} -${f.deletions}, git reads +${g.additions} -${g.deletions}`,
      };
    }
    summary.push(...expectedSummary(f));
  }
  // Compared as text, not split at newlines: with -z git prints paths raw, and a path may hold a newline.
  if (summary.join("").length !== reading.summary.length || summary.some((l) => !reading.summary.includes(l))) {
    return { ok: false, reason: "the modes the sections declare differ from the modes git reads" };
  }
  const files = sections.map((f, i): ChangeSetFile => {
    const g = reading.numstat[i]!;
    const special = specialOf(f);
    return {
      path: g.path,
      additions: g.additions ?? 0,
      deletions: g.deletions ?? 0,
      ...(g.additions === null ? { binary: true } : {}),
      ...(special ? { special } : {}),
    };
  });
  return { ok: true, files, hunks: sections.reduce((n, f) => n + f.hunks.length, 0) };
}

/**
 * The same paths in the same order. What promote re-checks a sidecar by: a sidecar frozen before this check existed may
 * list text counts for files its patch carries as binary (the capture's UTF-8 fallback), but never another file.
 */
export function samePaths(a: readonly ChangeSetFile[], b: readonly ChangeSetFile[]): boolean {
  return a.length === b.length && a.every((f, i) => f.path === b[i]!.path);
}

/** The same files, compared field by field (the file list a capture printed against the one derived from the patch). */
export function sameFiles(a: readonly ChangeSetFile[], b: readonly ChangeSetFile[]): boolean {
  return (
    a.length === b.length &&
    a.every((f, i) => {
      const g = b[i]!;
      // A binary file's counts are 0/0 in a capture's numstat; the check may have decoded them from the blobs.
      return (
        f.path === g.path &&
        Boolean(f.binary) === Boolean(g.binary) &&
        (Boolean(f.binary) || (f.additions === g.additions && f.deletions === g.deletions))
      );
    })
  );
}
