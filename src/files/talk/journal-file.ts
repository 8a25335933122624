// Where a project's journal view lives (`journal/<name>-<hash>.md` in the home) and its atomic rewrite.
// The name is derived from the project root, never taken from it verbatim: a path is not a file name.

import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { writeFileAtomic } from "../atomic.js";
import type { HomeLayout } from "../home.js";
import { assertRealDirBelow } from "../no-follow.js";

export function journalDir(home: HomeLayout): string {
  return join(home.root, "journal");
}

/** `journal/greeter-1a2b3c4d5e6f.md`: a readable stem from the root's last segment plus a hash of the whole root. */
export function journalFile(home: HomeLayout, projectRoot: string): string {
  const stem =
    basename(projectRoot)
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 48) || "project";
  const hash = createHash("sha256").update(projectRoot).digest("hex").slice(0, 12);
  return join(journalDir(home), `${stem}-${hash}.md`);
}

/** Replaces the view with `text` (readers see the old or the new file, never a mix). */
export function writeJournalFile(home: HomeLayout, projectRoot: string, text: string): string {
  const path = journalFile(home, projectRoot);
  assertRealDirBelow(home.root, journalDir(home));
  writeFileAtomic(path, text);
  return path;
}
