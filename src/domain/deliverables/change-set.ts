// The pure half of change-set capture: parse `git diff --numstat -z -p` output, count hunks, format the stat.
// The change set is frozen once with the deliverable; these rules only read what git printed
// (docs/decisions/immutable-deliverables.md).

import type { ChangeSetFile } from "./deliverable.js";

export interface ParsedDiff {
  files: ChangeSetFile[];
  /** The patch text exactly as git printed it (everything after the numstat block). */
  patch: string;
}

/**
 * Splits the output of `git diff --numstat -z -p --no-renames`: NUL-terminated `added\tdeleted\tpath` records,
 * one extra NUL, then the patch. Binary files show `-\t-` and count as 0/0 with `binary: true`.
 */
export function parseNumstatPatch(output: string): ParsedDiff {
  const files: ChangeSetFile[] = [];
  let at = 0;
  while (at < output.length && output[at] !== "\0") {
    const tab1 = output.indexOf("\t", at);
    const tab2 = tab1 === -1 ? -1 : output.indexOf("\t", tab1 + 1);
    const end = tab2 === -1 ? -1 : output.indexOf("\0", tab2 + 1);
    if (end === -1) throw new Error(`unexpected numstat output near offset ${at}`);
    const added = output.slice(at, tab1);
    const deleted = output.slice(tab1 + 1, tab2);
    const path = output.slice(tab2 + 1, end);
    const binary = added === "-" && deleted === "-";
    files.push({
      path,
      additions: binary ? 0 : Number(added),
      deletions: binary ? 0 : Number(deleted),
      ...(binary ? { binary: true } : {}),
    });
    at = end + 1;
  }
  const patch = at < output.length ? output.slice(at + 1) : "";
  return { files, patch };
}

/** Number of hunks: lines that start with `@@ ` (lines inside a hunk always start with ' ', '+', '-' or '\'). */
export function countHunks(patch: string): number {
  let n = patch.startsWith("@@ ") ? 1 : 0;
  let i = patch.indexOf("\n@@ ");
  while (i !== -1) {
    n++;
    i = patch.indexOf("\n@@ ", i + 4);
  }
  return n;
}

/** A terminal-independent stat: one line per file, then the totals line. Empty when nothing changed. */
export function formatStat(files: readonly ChangeSetFile[]): string {
  if (files.length === 0) return "";
  const width = Math.min(60, Math.max(...files.map((f) => f.path.length)));
  const lines = files.map((f) => ` ${f.path.padEnd(width)} | ${describeFileChange(f)}`);
  const adds = files.reduce((s, f) => s + f.additions, 0);
  const dels = files.reduce((s, f) => s + f.deletions, 0);
  lines.push(
    ` ${files.length} file${files.length === 1 ? "" : "s"} changed, ${adds} insertion${adds === 1 ? "" : "s"}(+), ${dels} deletion${dels === 1 ? "" : "s"}(-)`,
  );
  return lines.join("\n");
}

/** How one file changed, in the words of a stat line: a link and its target, a binary patch (decoded when it is text), counts. */
export function describeFileChange(f: ChangeSetFile): string {
  if (f.special) return `${f.special.kind} ${f.special.mode} -> ${JSON.stringify(f.special.target)}`;
  if (f.binary && f.decoded !== undefined)
    return `+${f.additions} -${f.deletions} (text frozen as a binary patch; decoded)`;
  return f.binary ? "binary" : `+${f.additions} -${f.deletions}`;
}
