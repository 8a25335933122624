// Opens the ledger file: WAL, busy_timeout, foreign keys, then applies pending numbered migrations.
// One connection per process; several processes share the file and serialise writes with BEGIN IMMEDIATE.

import Database from "better-sqlite3";
import { migrate } from "./migrate.js";

export type Db = Database.Database;

export interface OpenLedgerOptions {
  /** Milliseconds a writer waits for the lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  readonly?: boolean;
}

export function openLedger(path: string, options: OpenLedgerOptions = {}): Db {
  const db = new Database(path, { readonly: options.readonly ?? false });
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
  if (!options.readonly) {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
  }
  db.pragma("foreign_keys = ON");
  if (!options.readonly) migrate(db);
  return db;
}
