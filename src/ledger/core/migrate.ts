// Applies numbered migrations in order, each in its own IMMEDIATE transaction, recorded in schema_migrations.
// A database whose applied list is not a prefix of the known list (missing, reordered, or newer) is refused.

import type Database from "better-sqlite3";
import { DocketError } from "../../domain/errors.js";
import { MIGRATIONS, type Migration } from "./migrations/index.js";
import { sha256Hex } from "./sha256.js";

export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  // Migration 005 hashes stored run tokens in SQL with exactly the function the code uses.
  db.function("docket_sha256", { deterministic: true }, (value: unknown) => (typeof value === "string" ? sha256Hex(value) : value));
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  const applied = () => db.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all() as { version: number; name: string }[];
  const history = applied();
  checkHistory(history, migrations);
  // The history is a prefix of the list: when it is the whole list there is nothing to take the write lock for.
  if (history.length === migrations.length) return [];
  const ran: number[] = [];
  for (const m of migrations) {
    const step = db.transaction(() => {
      // Re-read under the write lock: another process may have applied it meanwhile.
      if (applied().some((a) => a.version === m.version)) return false;
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
      return true;
    });
    if (step.immediate()) ran.push(m.version);
  }
  return ran;
}

function checkHistory(applied: { version: number; name: string }[], migrations: readonly Migration[]): void {
  applied.forEach((a, i) => {
    const expected = migrations[i];
    if (!expected) {
      throw new DocketError("refusal", "ledger-newer", `the ledger has migration ${a.version} (${a.name}) that this build does not know`, {
        hint: "upgrade docket, or point DOCKET_HOME at another directory",
      });
    }
    if (expected.version !== a.version || expected.name !== a.name) {
      throw new DocketError("refusal", "ledger-history-corrupt", `the ledger's migration history is out of order at ${a.version} (${a.name}); expected ${expected.version} (${expected.name})`);
    }
  });
}
