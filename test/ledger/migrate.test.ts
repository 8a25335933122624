// Migrations apply once, in order; a ledger with a missing, reordered or unknown migration is refused untouched.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import Database from "better-sqlite3";
import { migrate } from "../../src/ledger/migrate.js";
import { openLedger } from "../../src/ledger/open.js";
import { MIGRATIONS } from "../../src/ledger/migrations/index.js";
import { tempDir } from "../support/temp.js";

function fresh(t: { after(fn: () => void): void }) {
  const path = join(tempDir(t), "ledger.sqlite");
  openLedger(path).close();
  const db = new Database(path);
  t.after(() => db.close());
  return db;
}

test("a new ledger gets every migration once; opening it again applies nothing", (t) => {
  const db = fresh(t);
  const applied = db.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all();
  assert.deepEqual(applied, MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  assert.deepEqual(migrate(db), []);
  assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
});

test("a ledger whose history is missing a migration is refused", (t) => {
  const db = fresh(t);
  db.prepare("DELETE FROM schema_migrations WHERE version = 1").run();
  if (MIGRATIONS.length > 1) {
    assert.throws(() => migrate(db), { code: "ledger-history-corrupt" });
  } else {
    // with a single migration, a missing first entry makes the history empty: the migration would rerun and fail loudly
    assert.throws(() => migrate(db), /already exists/);
  }
});

test("a ledger whose history is out of order or renamed is refused and left as it was", (t) => {
  const db = fresh(t);
  db.prepare("UPDATE schema_migrations SET name = 'something-else' WHERE version = 1").run();
  const before = db.prepare("SELECT * FROM schema_migrations").all();
  assert.throws(() => migrate(db), {
    code: "ledger-history-corrupt",
    message: `the ledger's migration history is out of order at 1 (something-else); expected 1 (${MIGRATIONS[0]!.name})`,
  });
  assert.deepEqual(db.prepare("SELECT * FROM schema_migrations").all(), before);
});

test("a ledger with a migration this build does not know is refused", (t) => {
  const db = fresh(t);
  db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', '2030-01-01')").run();
  assert.throws(() => migrate(db), { code: "ledger-newer", message: "the ledger has migration 999 (future) that this build does not know" });
});
