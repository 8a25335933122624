// What every surface shows of a frozen patch: a binary section over a file that is text at the base and after it
// (decoded by the human-side check at `done`) shown as that text diff, the file marked so a surface warns.
// One function for `docket diff`, the review page and pi; the frozen bytes themselves are never changed.

import type { ChangeSet } from "./deliverable.js";
import { parseDiffFiles, parseDiffSections, type DiffFile } from "./diff-files.js";
import { quotePath } from "../text/quote-path.js";

export interface ShownPatch {
  /** The patch as shown: each decoded file's binary section replaced by its text diff. It still applies to the base. */
  text: string;
  /** The files shown decoded, in patch order (each gets a warning). */
  decoded: string[];
}

/** The patch as shown, from a change set whose files the human-side check read (`decoded` set on those it decoded). */
export function shownPatch(cs: Pick<ChangeSet, "files" | "patch"> | null): ShownPatch {
  const patch = cs?.patch ?? "";
  const files = cs?.files ?? [];
  if (!files.some((f) => f.binary && f.decoded !== undefined)) return { text: patch, decoded: [] };
  const sections = splitSections(patch);
  const parsed = parseDiffSections(patch);
  // Sections and files disagree (a sidecar not from this check): nothing is decoded, the bytes are shown as frozen.
  if (sections.length !== parsed.length || parsed.length !== files.length) return { text: patch, decoded: [] };
  const decoded: string[] = [];
  const text = sections
    .map((section, k) => {
      const f = files[k]!;
      const binaryAt = section.indexOf("\nGIT binary patch\n");
      if (!f.binary || f.decoded === undefined || f.path !== parsed[k]!.path || binaryAt === -1) return section;
      decoded.push(f.path);
      const gone = parsed[k]!.status === "deleted";
      return `${section.slice(0, binaryAt + 1)}--- ${quotePath(`a/${f.path}`)}\n+++ ${gone ? "/dev/null" : quotePath(`b/${f.path}`)}\n${f.decoded.endsWith("\n") ? f.decoded : `${f.decoded}\n`}`;
    })
    .join("");
  return { text, decoded };
}

/** The shown patch as per-file review data: decoded files carry their text hunks and `frozenAsBinary`. */
export function shownDiffFiles(cs: Pick<ChangeSet, "files" | "patch"> | null): DiffFile[] {
  const shown = shownPatch(cs);
  if (shown.text === "") return [];
  const decoded = new Set(shown.decoded);
  return parseDiffFiles(shown.text).map((f) =>
    decoded.has(f.path) && !f.binary ? { ...f, frozenAsBinary: true as const } : f,
  );
}

/** The patch cut at each line that starts a `diff --git` section (no other line of a patch can start so). */
export function splitSections(patch: string): string[] {
  const starts = [0];
  for (let at = patch.indexOf("\ndiff --git "); at !== -1; at = patch.indexOf("\ndiff --git ", at + 1))
    starts.push(at + 1);
  return starts.map((s, k) => patch.slice(s, starts[k + 1] ?? patch.length));
}
