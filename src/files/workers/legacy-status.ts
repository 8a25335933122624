// Docket's status.json files left in `workers/w<N>/` by builds before worker directories moved to `fleet/`.
// pi-docket lists every `workers/*/status.json` and throws on Docket's shape, so these projections are removed (never read back).

import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { isWorkerId } from "../../domain/ids.js";
import type { HomeLayout } from "../home.js";
import { entryKind, readNoFollow } from "../no-follow.js";

/** The marker every Docket status projection carries; pi-docket's own status files never have it. */
export const STATUS_NOTE = "projection of the Docket ledger; editing this file changes nothing";

function isDocketStatus(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return typeof value === "object" && value !== null && "note" in value && value.note === STATUS_NOTE;
  } catch {
    return false; // not JSON: not a projection Docket wrote, so not ours to remove
  }
}

/** Docket's own status projections under `workers/` (w<N> directories only; pi-docket's are never touched). */
export function findLegacyStatusFiles(home: HomeLayout): string[] {
  if (entryKind(home.legacyWorkers) !== "dir") return [];
  const found: string[] = [];
  for (const name of readdirSync(home.legacyWorkers)) {
    if (!isWorkerId(name) || entryKind(join(home.legacyWorkers, name)) !== "dir") continue;
    const path = join(home.legacyWorkers, name, "status.json");
    const read = readNoFollow(path);
    if (read.ok === true && isDocketStatus(read.bytes)) found.push(path);
  }
  return found;
}

/** Removes them; returns the paths removed. */
export function removeLegacyStatusFiles(home: HomeLayout): string[] {
  const removed: string[] = [];
  for (const path of findLegacyStatusFiles(home)) {
    try {
      unlinkSync(path);
      removed.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error; // another process removed it first
    }
  }
  return removed;
}
