// Combine's files in the home: combined version sidecars (`combined/<w2-w3>/v<N>.json`, claimed once, never
// overwritten) and the scratch folders where the human resolves contested files (made whole by rename, read without links).

import { randomBytes } from "node:crypto";
import { readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { combinedDir, validateCombined, type CombinedDeliverable } from "../../domain/deliverables/combined.js";
import { claimFile } from "../atomic.js";
import { readFrozenJson, type FrozenRead } from "../frozen-json.js";
import type { HomeLayout } from "../home.js";
import { assertRealDirBelow, linkBelow, readNoFollow } from "../no-follow.js";
import { ensurePrivateDir } from "../private.js";

export type CombinedRead = FrozenRead<CombinedDeliverable>;

const VERSION_FILE = /^v([1-9][0-9]{0,9})\.json$/;

export function combinedVersionsDir(home: HomeLayout, key: string): string {
  return join(home.root, "combined", combinedDir(key));
}

export function combinedPath(home: HomeLayout, key: string, version: number): string {
  return join(combinedVersionsDir(home, key), `v${version}.json`);
}

/** Claimed version numbers of a pair, ascending (corrupt files keep their numbers taken). */
export function listCombinedVersions(home: HomeLayout, key: string): number[] {
  assertRealDirBelow(home.root, combinedVersionsDir(home, key));
  try {
    return readdirSync(combinedVersionsDir(home, key))
      .flatMap((n) => {
        const m = VERSION_FILE.exec(n);
        return m ? [Number(m[1])] : [];
      })
      .sort((a, b) => a - b);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

export function readCombined(home: HomeLayout, key: string, version: number): CombinedRead {
  return readFrozenJson(home.root, combinedPath(home, key, version), (value) =>
    validateCombined(value, { key, version }),
  );
}

/** Claims `v<N>.json` for the pair (temp, fsync, link); false when the number is taken. */
export function claimCombined(home: HomeLayout, key: string, version: number, d: CombinedDeliverable): boolean {
  assertRealDirBelow(home.root, combinedVersionsDir(home, key));
  const { schemaVersion, id, version: v, ref, createdAt, operation, ...rest } = d;
  return claimFile(
    combinedPath(home, key, version),
    `${JSON.stringify({ schemaVersion, id, version: v, ref, createdAt, operation, ...rest }, null, 2)}\n`,
  );
}

/** The pair's claimed version frozen by `operation`, if a crash left it unrecorded (newest first). */
export function findCombinedByOperation(home: HomeLayout, key: string, operation: string): CombinedRead | undefined {
  for (const version of listCombinedVersions(home, key).reverse()) {
    const read = readCombined(home, key, version);
    if (read.ok && read.deliverable.operation === operation) return read;
  }
  return undefined;
}

// ── scratch folders ─────────────────────────────────────────────────────────────────────────────────────────

export function scratchRoot(home: HomeLayout): string {
  return join(home.root, "combine");
}

export interface ScratchFile {
  /** Relative to the scratch folder (`files/src/a.ts`, `sides/w2/logo.png`, `README.md`). */
  path: string;
  bytes: Buffer | string;
}

/**
 * Writes a scratch folder whole: every file goes into a hidden temp folder, which is renamed into place last, so a
 * crash leaves either nothing or an unreferenced folder (the next combine removes it), never half a folder.
 */
export function createScratch(home: HomeLayout, name: string, files: readonly ScratchFile[]): string {
  const root = scratchRoot(home);
  ensurePrivateDir(root);
  assertRealDirBelow(home.root, root);
  const temp = join(root, `.${name}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const final = join(root, name);
  try {
    ensurePrivateDir(temp);
    for (const f of files) {
      const path = join(temp, f.path);
      ensurePrivateDir(dirname(path));
      writeFileSync(path, f.bytes, { mode: 0o600, flag: "wx" });
    }
    renameSync(temp, final);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  return final;
}

/** A file the human saved in the scratch folder: its bytes, `absent` (deleted), or why it cannot be read. */
export function readScratchFile(
  home: HomeLayout,
  scratch: string,
  rel: string,
): { ok: true; bytes: Buffer } | { ok: "absent" } | { ok: false; reason: string } {
  const path = join(scratch, rel);
  const linked = linkBelow(home.root, dirname(path));
  if (linked) return { ok: false, reason: `${linked.path} is not a real directory; Docket never follows links` };
  const read = readNoFollow(path);
  if (read.ok === true) return { ok: true, bytes: read.bytes };
  if (read.ok === "absent") return { ok: "absent" };
  return { ok: false, reason: read.reason };
}

export function removeScratch(home: HomeLayout, scratch: string): void {
  if (dirname(scratch) !== scratchRoot(home)) return; // only ever a folder Docket made there
  rmSync(scratch, { recursive: true, force: true });
}

/** Scratch folders (and temp folders a crash left) not in `keep`: leftovers nobody resolves any more. */
export function strayScratch(home: HomeLayout, keep: ReadonlySet<string>): string[] {
  try {
    return readdirSync(scratchRoot(home))
      .map((n) => join(scratchRoot(home), n))
      .filter((p) => !keep.has(p));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
