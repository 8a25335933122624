// When each deliverable version was frozen, so spend read later from an agent's records is counted to the version it led to.
// Written inside protocol.done's command; a version is marked once (a replayed done changes nothing).

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export function markVersion(tx: Tx, worker: string, version: number): void {
  statement(tx.db, "INSERT OR IGNORE INTO version_marks (worker, version, at) VALUES (?, ?, ?)").run(
    worker,
    version,
    tx.now,
  );
}

/** A worker's version marks, oldest first. */
export function versionMarks(db: Db, worker: string): { version: number; at: string }[] {
  return statement(db, "SELECT version, at FROM version_marks WHERE worker = ? ORDER BY version").all(worker) as {
    version: number;
    at: string;
  }[];
}
