// Applies numbered migrations in order, each in its own IMMEDIATE transaction, recorded in schema_migrations.
// A database whose applied list is not a prefix of the known list (missing, reordered, or newer) is refused.
// An up-to-date ledger is only read: every process opens it, and a read verb must never queue for the write lock.

import { createRequire } from "node:module";
import type Database from "better-sqlite3";
import { DocketError } from "../../domain/errors.js";
import { MIGRATION_HISTORY, type MigrationName } from "./migrations/history.js";
import type { Migration } from "./migrations/index.js";
import { sha256Hex } from "./sha256.js";

// The bodies load only when a ledger is behind (`require` of an ES module, as substrate/require-esm.ts does).
type Bodies = typeof import("./migrations/index.js");
let bodies: Bodies | undefined;
const allMigrations = (): readonly Migration[] =>
  (bodies ??= createRequire(import.meta.url)("./migrations/index.js") as Bodies).MIGRATIONS;

export function migrate(db: Database.Database, given?: readonly Migration[]): number[] {
  // Migration 005 hashes stored run tokens in SQL with exactly the function the code uses.
  db.function("docket_sha256", { deterministic: true }, (value: unknown) =>
    typeof value === "string" ? sha256Hex(value) : value,
  );
  const exists =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
  if (!exists)
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
  const applied = () =>
    db.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all() as {
      version: number;
      name: string;
    }[];
  const history = applied();
  checkHistory(history, given ?? MIGRATION_HISTORY);
  // The history is a prefix of the list: when it is the whole list there is nothing to take the write lock for.
  if (history.length === (given ?? MIGRATION_HISTORY).length) return [];
  const migrations = given ?? allMigrations();
  const ran: number[] = [];
  for (const m of migrations) {
    if (applied().some((a) => a.version === m.version)) continue;
    const step = db.transaction(() => {
      // Re-read under the write lock: another process may have applied it meanwhile.
      if (applied().some((a) => a.version === m.version)) return false;
      if (m.sql !== undefined) db.exec(m.sql);
      if (m.rebuild) {
        m.rebuild(db);
        const broken = db.pragma("foreign_key_check") as unknown[];
        if (broken.length > 0)
          throw new DocketError(
            "internal",
            "migration-broke-references",
            `migration ${m.version} (${m.name}) left ${broken.length} broken reference(s); nothing was changed`,
          );
      }
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
      return true;
    });
    // SQLite ignores this pragma inside a transaction: a rebuild turns foreign keys off around its own.
    const foreignKeys = m.rebuild ? db.pragma("foreign_keys", { simple: true }) : undefined;
    if (m.rebuild) db.pragma("foreign_keys = OFF");
    try {
      if (step.immediate()) ran.push(m.version);
    } finally {
      if (m.rebuild) db.pragma(`foreign_keys = ${foreignKeys ? "ON" : "OFF"}`);
    }
  }
  return ran;
}

/** Migrations this database still lacks (all of them for an empty file); a history this build cannot extend is refused. */
export function pendingMigrations(db: Database.Database, given?: readonly Migration[]): Migration[] {
  const hasTable =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
  const applied = hasTable
    ? (db.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all() as {
        version: number;
        name: string;
      }[])
    : [];
  checkHistory(applied, given ?? MIGRATION_HISTORY);
  if (applied.length === (given ?? MIGRATION_HISTORY).length) return [];
  return (given ?? allMigrations()).slice(applied.length);
}

function checkHistory(applied: { version: number; name: string }[], migrations: readonly MigrationName[]): void {
  applied.forEach((a, i) => {
    const expected = migrations[i];
    if (!expected) {
      throw new DocketError(
        "refusal",
        "ledger-newer",
        `the ledger has migration ${a.version} (${a.name}) that this build does not know`,
        {
          hint: "upgrade docket, or point DOCKET_HOME at another directory",
        },
      );
    }
    if (expected.version !== a.version || expected.name !== a.name) {
      throw new DocketError(
        "refusal",
        "ledger-history-corrupt",
        `the ledger's migration history is out of order at ${a.version} (${a.name}); expected ${expected.version} (${expected.name})`,
      );
    }
  });
}
