// Migration 007 widens the workers' agent check by rebuilding the table: rows, references and indexes survive it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import Database from "better-sqlite3";
import { migrate } from "../../../src/ledger/core/migrate.js";
import { MIGRATIONS } from "../../../src/ledger/core/migrations/index.js";
import { tempDir } from "../../support/temp.js";

const WORKER = `INSERT INTO workers (id, seq, task, kind, agent, execution, cwd, project_root, workspace, workspace_mode, generation, run_token_hash, state, created_at, updated_at)
  VALUES (?, ?, 't', 'default', ?, '{}', '/p', '/p', '/p', 'shared', 1, 'tok', 'starting', 'now', 'now')`;

test("a ledger at migration 6 keeps its workers and their launches, and then accepts claude and codex workers", (t) => {
  const db = new Database(join(tempDir(t), "ledger.sqlite"));
  t.after(() => db.close());
  db.pragma("foreign_keys = ON");
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= 6),
  );
  assert.throws(() => db.prepare(WORKER).run("w2", 2, "claude"), /CHECK constraint failed/);
  db.prepare(WORKER).run("w1", 1, "pi");
  db.prepare(
    "INSERT INTO launches (worker, generation, run_token_hash, started_at) VALUES ('w1', 1, 'tok', 'now')",
  ).run();
  const before = db.prepare("SELECT * FROM workers").all();

  assert.equal(
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 7),
    )[0],
    7,
    "migration 007 runs next",
  );
  assert.deepEqual(db.prepare("SELECT * FROM workers").all(), before);
  assert.equal(db.pragma("foreign_keys", { simple: true }), 1, "foreign keys are on again after the rebuild");
  db.prepare(WORKER).run("w2", 2, "claude");
  db.prepare(WORKER).run("w3", 3, "codex");
  assert.throws(() => db.prepare(WORKER).run("w4", 4, "gemini"), /CHECK constraint failed/);
  assert.throws(
    () =>
      db
        .prepare("INSERT INTO launches (worker, generation, run_token_hash, started_at) VALUES ('w9', 1, 'tok', 'now')")
        .run(),
    /FOREIGN KEY constraint failed/,
  );
  assert.deepEqual(db.pragma("foreign_key_check"), []);
});
