// A worker's live activity log (events.ndjson): append-only NDJSON, rotated to events.1.ndjson past a size cap.
// Lines are written with one append each, so a reader tailing the file never sees half a record; the file is private.

import { closeSync, fstatSync, lstatSync, openSync, readSync, renameSync, constants } from "node:fs";
import { dirname } from "node:path";
import { appendPrivateFile, ensurePrivateDir } from "../private.js";

export const EVENTS_ROTATE_BYTES = 5 * 1024 * 1024;

export function appendEventLine(path: string, event: Record<string, unknown>, rotateBytes = EVENTS_ROTATE_BYTES): void {
  ensurePrivateDir(dirname(path));
  try {
    if (lstatSync(path).size >= rotateBytes) renameSync(path, path.replace(/\.ndjson$/, ".1.ndjson"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  appendPrivateFile(path, `${JSON.stringify(event)}\n`);
}

/** How far back a retried event is looked for: its client retries for 20 s, a few lines at most in between. */
const RECENT_BYTES = 64 * 1024;

/** The last `bytes` of the file at `path` (empty when there is none); never through a link. */
function tailOf(path: string, bytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
  try {
    const size = fstatSync(fd).size; // of the file opened, not whatever the name points at by now
    const buf = Buffer.alloc(Math.min(size, bytes));
    const n = readSync(fd, buf, 0, buf.length, size - buf.length);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends an event its client keyed (`key`), unless a line with that key is among the recent ones (the current file's
 * tail, and the rotated file's when the current one is young): a retry after the door died lands the event once.
 * The door is the file's one writer and runs one call at a time, so nothing can come between the look and the append.
 */
export function appendKeyedEventLine(path: string, event: Record<string, unknown>, key: string): boolean {
  const mark = `"key":${JSON.stringify(key)}`;
  const recent = tailOf(path, RECENT_BYTES);
  const older =
    recent.length < RECENT_BYTES ? tailOf(path.replace(/\.ndjson$/, ".1.ndjson"), RECENT_BYTES - recent.length) : "";
  if (recent.includes(mark) || older.includes(mark)) return false;
  appendEventLine(path, { ...event, key });
  return true;
}

/** When the events log was last appended to (ms), or 0 when it does not exist. */
export function eventsTouchedMs(path: string): number {
  try {
    return lstatSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
