// Reading Docket's own home without following links: a symlink or special file found there is reported, never traversed.
// Store scans, sidecar reads, saves and deletes check every directory below the home root first
// (docs/decisions/authority.md).

import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync } from "node:fs";
import { relative, sep } from "node:path";
import { refusal } from "../domain/errors.js";

export type EntryKind = "absent" | "dir" | "file" | "symlink" | "other";

/** What is at `path` itself (a symlink is a symlink, not what it points at). */
export function entryKind(path: string): EntryKind {
  let st;
  try {
    st = lstatSync(path, { throwIfNoEntry: false }); // an absent entry is common (a worker's optional files): no error built
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return "absent";
    throw error;
  }
  if (!st) return "absent";
  return st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
}

/**
 * The first directory strictly below `root` on the way to `path` (inclusive) that is a symlink or not a directory;
 * undefined when every existing one is a real directory. `root` itself may be a link (a user's choice of home).
 */
export function linkBelow(
  root: string,
  path: string,
): { path: string; kind: Exclude<EntryKind, "absent" | "dir"> } | undefined {
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..")) return undefined;
  const parts = rel.split(sep);
  let at = root;
  for (const part of parts) {
    at = at.endsWith(sep) ? `${at}${part}` : `${at}${sep}${part}`; // relative()'s parts are normal: no join needed
    const kind = entryKind(at);
    if (kind === "absent") return undefined;
    if (kind !== "dir") return { path: at, kind };
  }
  return undefined;
}

/** Refuses (code `home-symlink`) when a directory between `root` and `dir` is a symlink or not a directory. */
export function assertRealDirBelow(root: string, dir: string): void {
  const bad = linkBelow(root, dir);
  if (!bad) return;
  const what = bad.kind === "symlink" ? "is a symbolic link" : "is not a directory";
  throw refusal(
    "home-symlink",
    `${bad.path} ${what}; Docket never follows links or writes through them inside its home`,
    "replace it with a real directory (or remove it), then retry",
  );
}

export type NoFollowRead =
  | { ok: true; bytes: Buffer }
  | { ok: "absent" }
  | { ok: false; kind: "symlink" | "not-a-file" | "unreadable" | "too-large"; reason: string };

/**
 * The most Docket reads of one file in its home (a sidecar, a stored record, a pane tail): a larger one is refused from
 * its size alone, before a byte is read, so a planted 175 MB sidecar costs an unrelated view one fstat.
 */
export const MAX_HOME_FILE_BYTES = 32 * 1024 * 1024;

const mib = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * Reads a regular file without following a symlink at its name and without blocking on a FIFO placed there.
 * The caller checks the directories above it with `linkBelow`.
 */
export function readNoFollow(path: string, maxBytes = MAX_HOME_FILE_BYTES): NoFollowRead {
  return withRegularFile(path, (fd, size) => {
    if (size > maxBytes)
      return {
        ok: false,
        kind: "too-large",
        reason: `${path} is too large to read (${mib(size)}; at most ${mib(maxBytes)})`,
      };
    return { ok: true, bytes: readFileSync(fd) };
  });
}

/**
 * The last `maxBytes` of a regular file (all of it when smaller), read as `readNoFollow` reads: for a view that shows
 * only a file's end (a pane tail), so its size costs nothing past that.
 */
export function readNoFollowTail(path: string, maxBytes: number): NoFollowRead {
  return withRegularFile(path, (fd, size) => {
    const from = Math.max(0, size - maxBytes);
    const buf = Buffer.allocUnsafe(size - from);
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, from + n);
      if (r === 0) break;
      n += r;
    }
    return { ok: true, bytes: buf.subarray(0, n) };
  });
}

/** Opens `path` without following a link or blocking on a FIFO; `read` gets the descriptor of a regular file only. */
function withRegularFile(path: string, read: (fd: number, size: number) => NoFollowRead): NoFollowRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: "absent" };
    if (code === "ELOOP")
      return {
        ok: false,
        kind: "symlink",
        reason: `${path} is a symbolic link; Docket never follows links inside its home`,
      };
    return { ok: false, kind: "unreadable", reason: `cannot read ${path}: ${(error as Error).message}` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, kind: "not-a-file", reason: `${path} is not a regular file` };
    return read(fd, stat.size);
  } catch (error) {
    return { ok: false, kind: "unreadable", reason: `cannot read ${path}: ${(error as Error).message}` };
  } finally {
    closeSync(fd);
  }
}
