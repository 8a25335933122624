// A scratch directory outside the home (`docket demo`'s repository, home and scripts): created fresh, never reused,
// and plain files in it, written and read back as they are. Nothing here is private or claimed.

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A new, empty directory `<parent>/<prefix>XXXXXX` (parent: the system temp dir). */
export function createScratchDir(prefix: string, parent = tmpdir()): string {
  return mkdtempSync(join(parent, prefix));
}

export function writeScratchFile(path: string, text: string): void {
  writeFileSync(path, text);
}

export function readScratchFile(path: string): string {
  return readFileSync(path, "utf8");
}
