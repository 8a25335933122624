// A worker's live activity log (events.ndjson): append-only NDJSON, rotated to events.1.ndjson past a size cap.
// Lines are written with one append each, so a reader tailing the file never sees half a record.

import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";

export const EVENTS_ROTATE_BYTES = 5 * 1024 * 1024;

export function appendEventLine(path: string, event: Record<string, unknown>, rotateBytes = EVENTS_ROTATE_BYTES): void {
  mkdirSync(dirname(path), { recursive: true });
  try {
    if (statSync(path).size >= rotateBytes) renameSync(path, path.replace(/\.ndjson$/, ".1.ndjson"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  appendFileSync(path, `${JSON.stringify(event)}\n`);
}
