// Opens the ledger for reading only, for a home Docket cannot write: it never migrates and never creates -wal or -shm.
// A WAL-mode file with no -shm beside it is read from a private in-memory copy; a ledger that needs migrating is refused.

import Database from "better-sqlite3";
import { readFileSync, statSync } from "node:fs";
import { refusal } from "../../domain/errors.js";
import { migrate, pendingMigrations } from "./migrate.js";
import { loadNativeModule, nativeBinding, type Db } from "./open.js";

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}

/** A read-only handle on the ledger as it is, without a migration check. An absent or empty file reads as an empty ledger. */
export function openReadOnlyRaw(path: string): Db {
  loadNativeModule();
  const size = sizeOf(path);
  if (size === 0) {
    const empty = new Database(":memory:", nativeBinding()); // nothing was ever recorded here: every list is empty
    migrate(empty);
    return empty;
  }
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true, ...nativeBinding() });
    db.prepare("SELECT 1 FROM sqlite_master LIMIT 1").get();
    return db;
  } catch (error) {
    if ((error as { code?: string }).code !== "SQLITE_CANTOPEN") throw error;
  }
  // SQLite cannot read a WAL-mode file read-only unless its -shm exists or can be created. Without a -wal, the main
  // file holds every committed change, so a copy marked as rollback-journal (header bytes 18-19) reads the same rows.
  if (sizeOf(`${path}-wal`) > 0) {
    throw refusal(
      "home-read-only",
      `the ledger ${path} has changes in ${path}-wal that only a writer can fold in, and its home is read-only`,
      "make the home writable and run any docket command once",
    );
  }
  const bytes = readFileSync(path);
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return new Database(bytes, { readonly: true, ...nativeBinding() });
}

/** The ledger for a read-only home; refused (`ledger-needs-migration`) when this build would have to migrate it first. */
export function openLedgerReadOnly(path: string): Db {
  const db = openReadOnlyRaw(path);
  let pending;
  try {
    pending = pendingMigrations(db);
  } catch (error) {
    db.close();
    throw error;
  }
  if (pending.length > 0) {
    db.close();
    throw refusal(
      "ledger-needs-migration",
      `the ledger ${path} needs migration ${pending.map((m) => `${m.version} (${m.name})`).join(", ")} before this build can read it, and its home is read-only`,
      "run any docket command once with write access to the home; read-only use works after that",
    );
  }
  return db;
}
