// A real, migrated SQLite ledger file in a temp dir, or one migrated only as far as an older build took it.

import { join } from "node:path";
import Database from "better-sqlite3";
import { migrate } from "../../src/ledger/core/migrate.js";
import { MIGRATIONS } from "../../src/ledger/core/migrations/index.js";
import { openLedger, type Db } from "../../src/ledger/core/open.js";
import { tempDir } from "./temp.js";
import type { Hooks } from "./teardown.js";

export function ledgerAt(dir: string): Db {
  return openLedger(join(dir, "ledger.sqlite"));
}

/** Applies the migrations up to and including `version` that the ledger lacks; returns the versions applied. */
export function migrateTo(db: Database.Database, version: number): number[] {
  return migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= version),
  );
}

/** A ledger in a temp dir as a build that knew migrations up to `version` left it (`pragma` set first), closed at the end. */
export function ledgerUpTo(t: Hooks, version: number, pragma?: string): Database.Database {
  const db = new Database(join(tempDir(t), "ledger.sqlite"));
  t.after(() => {
    db.close();
  });
  if (pragma) db.pragma(pragma);
  migrateTo(db, version);
  return db;
}
