// A worker's live activity log (events.ndjson): append-only NDJSON, rotated to events.1.ndjson past a size cap.
// Lines are written with one append each, so a reader tailing the file never sees half a record; the file is private.

import { lstatSync, renameSync } from "node:fs";
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
