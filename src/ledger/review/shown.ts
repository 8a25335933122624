// The `shown` table: which exact version of each worker a human surface last displayed, and where.
// Written on every card, report and diff view (one upsert); read by the bare-id judgment guard.

import type { ShownSurface, ShownVersion } from "../../domain/review/shown-binding.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

interface Row {
  worker: string;
  ref: string;
  version: number;
  surface: ShownSurface;
  at: string;
}

export function lastShownOf(db: Db, worker: string): ShownVersion | undefined {
  const r = statement(db, "SELECT worker, ref, version, surface, at FROM shown WHERE worker = ?").get(worker) as
    | Row
    | undefined;
  return r ? { worker: r.worker, ref: r.ref, version: r.version, surface: r.surface, at: r.at } : undefined;
}

/** Replaces the worker's last-shown row (an upsert: the same view twice leaves the same row). */
export function recordShownRow(tx: Tx, shown: Omit<ShownVersion, "at">): void {
  statement(
    tx.db,
    `INSERT INTO shown (worker, ref, version, surface, at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(worker) DO UPDATE SET ref = excluded.ref, version = excluded.version, surface = excluded.surface, at = excluded.at`,
  ).run(shown.worker, shown.ref, shown.version, shown.surface, tx.now);
}
