// Private files and directories of the Docket home: directories 0700, files 0600, whatever the process umask.
// Every file or directory Docket creates under $DOCKET_HOME goes through here, so one place decides who may read
// (docs/decisions/authority.md).

import { chmodSync, closeSync, constants, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` and any missing parents as 0700 (exactly: the umask cannot loosen or tighten them). A directory
 * that already exists keeps its mode; `docket doctor` reports and fixes a looser one.
 */
export function ensurePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  for (let p = dir; ; p = dirname(p)) {
    chmodSync(p, PRIVATE_DIR_MODE);
    if (p === first || dirname(p) === p) break;
  }
}

/**
 * Opens a new file for writing, exclusively (never an existing name, never through a symlink), as exactly 0600.
 * Returns the descriptor; the caller closes it.
 */
export function createPrivateFile(path: string): number {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    PRIVATE_FILE_MODE,
  );
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Makes sure `path` exists as a file; a new one is empty and 0600, an existing one is left untouched. */
export function ensurePrivateFile(path: string): void {
  let fd: number;
  try {
    fd = createPrivateFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw error;
  }
  closeSync(fd);
}

/** Appends `text` to `path` (created 0600 when absent); refuses to append through a symlink. */
export function appendPrivateFile(path: string, text: string): void {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
    PRIVATE_FILE_MODE,
  );
  try {
    const buf = Buffer.from(text, "utf8");
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  } finally {
    closeSync(fd);
  }
}
