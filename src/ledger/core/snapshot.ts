// A read snapshot: many reads in one read transaction, so they see the ledger at one moment and SQLite takes and
// drops its WAL read lock once instead of once per statement (a verdict queue runs hundreds of statements).
// Only reads: a command inside one would have to upgrade a stale snapshot to a write, which SQLite refuses at once
// instead of waiting its turn, so the runner refuses to start one there (see runner.ts).

import type Database from "better-sqlite3";
import { internalError } from "../../domain/errors.js";

const inSnapshot = new WeakSet<Database.Database>();

/** Runs `read` inside one read transaction on `db` (or inside the transaction already open) and returns its answer. */
export function readSnapshot<T>(db: Database.Database, read: () => T): T {
  if (db.inTransaction) return read();
  db.exec("BEGIN DEFERRED");
  inSnapshot.add(db);
  try {
    return read();
  } finally {
    inSnapshot.delete(db);
    db.exec("COMMIT"); // nothing was written: ends the read transaction
  }
}

/** Throws when a command would start inside a read snapshot: a bug in the caller, never the human's input. */
export function assertNoSnapshot(db: Database.Database, command: string): void {
  if (inSnapshot.has(db))
    throw internalError(
      "command-in-snapshot",
      `ledger command ${command} started inside a read snapshot: run it first`,
    );
}
