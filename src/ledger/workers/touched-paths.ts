// Paths each worker read or edited, in project coordinates, recorded once each (first time seen) by its own calls.
// What broadcast scoring and base-moved compare against; a worker's frozen change set adds its files as edits.

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export type TouchKind = "read" | "edit";

export interface TouchedPath {
  path: string;
  how: TouchKind;
}

/** Records each path not yet recorded for this worker; returns how many were new. */
export function recordTouchedPaths(tx: Tx, worker: string, paths: readonly TouchedPath[]): number {
  const put = statement(tx.db, "INSERT OR IGNORE INTO touched_paths (worker, path, how, first_at) VALUES (?, ?, ?, ?)");
  return paths.reduce((n, p) => n + put.run(worker, p.path, p.how, tx.now).changes, 0);
}

export interface WorkerTouches {
  read: string[];
  edit: string[];
}

/** Every worker's touched paths among `workers`, keyed by worker. */
export function touchesOf(db: Db, workers: readonly string[]): Map<string, WorkerTouches> {
  const out = new Map<string, WorkerTouches>(workers.map((w) => [w, { read: [], edit: [] }]));
  if (workers.length === 0) return out;
  const rows = statement(
    db,
    "SELECT worker, path, how FROM touched_paths WHERE worker IN (SELECT value FROM json_each(?)) ORDER BY worker, path",
  ).all(JSON.stringify(workers)) as { worker: string; path: string; how: TouchKind }[];
  for (const r of rows) out.get(r.worker)?.[r.how].push(r.path);
  return out;
}
