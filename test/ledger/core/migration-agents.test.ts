// Migration 007 widens the workers' agent check by rebuilding the table: rows, references and indexes survive it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ledgerUpTo, migrateTo } from "../../support/ledger.js";

const WORKER = `INSERT INTO workers (id, seq, task, kind, agent, execution, cwd, project_root, workspace, workspace_mode, generation, run_token_hash, state, created_at, updated_at)
  VALUES (?, ?, 't', 'default', ?, '{}', '/p', '/p', '/p', 'shared', 1, 'tok', 'starting', 'now', 'now')`;

test("a ledger at migration 6 keeps its workers and their launches, and then accepts claude and codex workers", (t) => {
  const db = ledgerUpTo(t, 6, "foreign_keys = ON");
  assert.throws(() => db.prepare(WORKER).run("w2", 2, "claude"), /CHECK constraint failed/);
  db.prepare(WORKER).run("w1", 1, "pi");
  db.prepare(
    "INSERT INTO launches (worker, generation, run_token_hash, started_at) VALUES ('w1', 1, 'tok', 'now')",
  ).run();
  const before = db.prepare("SELECT * FROM workers").all();

  assert.equal(migrateTo(db, 7)[0], 7, "migration 007 runs next");
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
