// Asking the file system what is there, for the layers above that touch no file themselves (the engine imports no node:fs).
// Each answer is a plain value; a probe that cannot tell says so in its result rather than throwing.

import { accessSync, constants, existsSync, statfsSync, statSync } from "node:fs";

/** Whether anything is at `path` (following links, as a process opening it would). */
export function pathExists(path: string): boolean {
  return existsSync(path);
}

/** Whether this process may write into `path`. */
export function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false; // read-only file system or no permission
  }
}

/** Less than 64 KiB free on the disk holding `dir`; false when it cannot be told. */
export function diskIsFull(dir: string): boolean {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize < 64 * 1024;
  } catch {
    return false; // cannot tell: the caller reports its error as it is
  }
}

export type DirState =
  | { kind: "dir" }
  | { kind: "not-dir" }
  | { kind: "missing" }
  | { kind: "unreadable"; code: string };

/** What is at a path that should be a directory. */
export function dirState(path: string): DirState {
  try {
    return statSync(path).isDirectory() ? { kind: "dir" } : { kind: "not-dir" };
  } catch (error) {
    const code = String((error as NodeJS.ErrnoException).code);
    return code === "ENOENT" ? { kind: "missing" } : { kind: "unreadable", code };
  }
}
