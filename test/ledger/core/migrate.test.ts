// Migrations apply once, in order; a ledger with a missing, reordered or unknown migration is refused untouched.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { migrate } from "../../../src/ledger/core/migrate.js";
import { openLedger } from "../../../src/ledger/core/open.js";
import { MIGRATIONS } from "../../../src/ledger/core/migrations/index.js";
import { hashRunToken } from "../../../src/ledger/workers/workers.js";
import { ledgerUpTo, migrateTo } from "../../support/ledger.js";
import { tempDir } from "../../support/temp.js";

function fresh(t: { after(fn: () => void): void }) {
  const path = join(tempDir(t), "ledger.sqlite");
  openLedger(path).close();
  const db = new Database(path);
  t.after(() => db.close());
  return db;
}

/** Worker w1, active, as the columns stood from migration 005 on (run_token_hash, no env). */
function addActiveWorker(db: Database.Database, now: string): void {
  db.prepare(
    `INSERT INTO workers (id, seq, task, kind, agent, execution, cwd, project_root, workspace, workspace_mode, generation, run_token_hash, state, created_at, updated_at)
     VALUES ('w1', 1, 't', 'default', 'command', '{}', '/p', '/p', '/p', 'shared', 1, 'h', 'active', ?, ?)`,
  ).run(now, now);
}

test("a new ledger gets every migration once; opening it again applies nothing", (t) => {
  const db = fresh(t);
  const applied = db.prepare("SELECT version, name FROM schema_migrations ORDER BY version").all();
  assert.deepEqual(
    applied,
    MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
  );
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
  assert.throws(() => migrate(db), {
    code: "ledger-newer",
    message: "the ledger has migration 999 (future) that this build does not know",
  });
});

test("migration 005 turns a ledger's plain run tokens into their sha256 and keeps only the names of --env variables", (t) => {
  const path = join(tempDir(t), "ledger.sqlite");
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  migrateTo(db, 4);
  const now = "2026-01-01T00:00:00.000Z";
  const token = "plain-token-0123456789";
  db.prepare(
    `INSERT INTO workers (id, seq, task, kind, agent, execution, env, cwd, project_root, workspace, workspace_mode, generation, run_token, state, created_at, updated_at)
     VALUES ('w1', 1, 'old', 'default', 'command', '{}', ?, '/p', '/p', '/p', 'shared', 2, ?, 'active', ?, ?)`,
  ).run(
    JSON.stringify({ API_KEY: "sekrit-value-42", CERT: `-----BEGIN-----${"c".repeat(6000)}-----END-----`, OTHER: "x" }),
    token,
    now,
    now,
  );
  db.prepare(
    "INSERT INTO launches (worker, generation, run_token, started_at) VALUES ('w1', 1, 'old-gen-token', ?), ('w1', 2, ?, ?)",
  ).run(now, token, now);

  assert.deepEqual(migrateTo(db, 5), [5]);
  const row = db.prepare("SELECT run_token_hash, env FROM workers WHERE id = 'w1'").get() as {
    run_token_hash: string;
    env: string;
  };
  assert.equal(row.run_token_hash, hashRunToken(token));
  assert.equal(row.run_token_hash, createHash("sha256").update(token).digest("hex"));
  assert.deepEqual(JSON.parse(row.env), ["API_KEY", "CERT", "OTHER"]);
  assert.deepEqual(db.prepare("SELECT generation, run_token_hash FROM launches ORDER BY generation").all(), [
    { generation: 1, run_token_hash: hashRunToken("old-gen-token") },
    { generation: 2, run_token_hash: hashRunToken(token) },
  ]);
  db.close();
  const bytes = readFileSync(path).toString("latin1");
  assert.ok(!bytes.includes("sekrit-value-42"), "the secret value is gone from the file, not just from the row");
  assert.ok(!bytes.includes("c".repeat(100)), "so is a long one that lived in an overflow page");
  assert.ok(!bytes.includes(token), "the plain token is gone from the file");
});

test("opening an up-to-date ledger takes no write lock, so it opens while another process holds one", (t) => {
  const path = join(tempDir(t), "ledger.sqlite");
  openLedger(path).close();
  const writer = new Database(path);
  t.after(() => writer.close());
  writer.exec("BEGIN IMMEDIATE");
  const reader = openLedger(path, { busyTimeoutMs: 50 });
  t.after(() => reader.close());
  assert.equal(
    (reader.prepare("SELECT count(*) AS n FROM schema_migrations").get() as { n: number }).n,
    MIGRATIONS.length,
  );
  writer.exec("ROLLBACK");
});

test("migration 008 keeps every binding and obligation; active ones are still found by item, dispatch and worker, owed ones by due time", (t) => {
  const db = ledgerUpTo(t, 7, "journal_mode = WAL");
  const now = "2026-01-01T00:00:00.000Z";
  addActiveWorker(db, now);
  db.prepare(
    "INSERT INTO dispatches (id, worker, generation, state, created_at) VALUES ('d1', 'w1', 1, 'active', ?)",
  ).run(now);
  for (const [i, state] of [
    [1, "active"],
    [2, "resolved"],
    [3, "active"],
  ] as const) {
    db.prepare(
      "INSERT INTO items (id, kind, text, revision, state, created_at, updated_at) VALUES (?, 'todo', 'x', 1, 'open', ?, ?)",
    ).run(`t${i}`, now, now);
    db.prepare(
      "INSERT INTO bindings (id, dispatch, item, worker, generation, accepted_revision, state, created_at) VALUES (?, 'd1', ?, 'w1', 1, 1, ?, ?)",
    ).run(`b${i}`, `t${i}`, state, now);
    db.prepare(
      "INSERT INTO obligations (id, binding, item, worker, state, due_at, created_at) VALUES (?, ?, ?, 'w1', ?, ?, ?)",
    ).run(`o${i}`, `b${i}`, `t${i}`, state === "active" ? "owed" : "resolved", `2026-01-0${4 - i}T00:00:00.000Z`, now);
  }
  const before = {
    bindings: db.prepare("SELECT * FROM bindings ORDER BY id").all(),
    obligations: db.prepare("SELECT * FROM obligations ORDER BY id").all(),
  };

  assert.deepEqual(migrateTo(db, 8), [8]);
  assert.deepEqual(
    {
      bindings: db.prepare("SELECT * FROM bindings ORDER BY id").all(),
      obligations: db.prepare("SELECT * FROM obligations ORDER BY id").all(),
    },
    before,
  );
  assert.deepEqual(db.prepare("SELECT id FROM bindings WHERE item = 't3' AND state = 'active'").all(), [{ id: "b3" }]);
  assert.deepEqual(db.prepare("SELECT COUNT(*) AS n FROM bindings WHERE dispatch = 'd1' AND state = 'active'").get(), {
    n: 2,
  });
  assert.deepEqual(db.prepare("SELECT id FROM bindings WHERE worker = 'w1' AND state = 'active' ORDER BY id").all(), [
    { id: "b1" },
    { id: "b3" },
  ]);
  assert.deepEqual(db.prepare("SELECT id FROM obligations WHERE state = 'owed' ORDER BY due_at").all(), [
    { id: "o3" },
    { id: "o1" },
  ]);
  const indexes = (table: string) =>
    (
      db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`,
        )
        .all(table) as { name: string }[]
    ).map((r) => r.name);
  assert.deepEqual(indexes("bindings"), ["bindings_active_dispatch", "bindings_one_active_per_item"]);
  assert.deepEqual(indexes("obligations"), ["obligations_owed"]);
});

test("migration 009 rebuilds messages keeping every row and column, marks delivered ones as inbox deliveries, and widens the kinds", (t) => {
  const db = ledgerUpTo(t, 8, "foreign_keys = ON");
  const now = "2026-01-01T00:00:00.000Z";
  addActiveWorker(db, now);
  const insert =
    db.prepare(`INSERT INTO messages (id, worker, kind, body, deliver_as, delivery, delivered_generation, created_at, delivered_at, read_at)
    VALUES (?, 'w1', ?, ?, ?, ?, ?, ?, ?, ?)`);
  insert.run("m1", "tell", "queued words", "steer", "queued", null, now, null, null);
  insert.run("m2", "answer", "read words", "followUp", "read", 1, now, now, now);
  insert.run("m3", "review_note", "delivered words", "steer", "delivered", 1, now, now, null);
  const before = db.prepare("SELECT * FROM messages ORDER BY id").all() as Record<string, unknown>[];

  assert.deepEqual(migrateTo(db, 9), [9]);
  const after = db.prepare("SELECT * FROM messages ORDER BY id").all() as Record<string, unknown>[];
  assert.deepEqual(
    after.map(({ delivered_via: _v, from_actor: _f, ...rest }) => rest),
    before,
  );
  assert.deepEqual(
    after.map((m) => [m.id, m.delivered_via, m.from_actor]),
    [
      ["m1", null, "human"],
      ["m2", "inbox", "human"],
      ["m3", "inbox", "human"],
    ],
  );
  insert.run("m4", "broadcast", "to everyone", "nextTurn", "queued", null, now, null, null);
  assert.deepEqual(db.pragma("foreign_key_check"), []);
  assert.deepEqual(
    (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL")
        .all() as { name: string }[]
    ).map((r) => r.name),
    ["messages_worker"],
  );
});

test("migration 012 counts every notification already in the ledger as sent, so turning a sink on never replays history", (t) => {
  const db = ledgerUpTo(t, 11);
  db.prepare(
    "INSERT INTO notifications (id, kind, body, created_at) VALUES ('n1', 'question', 'old?', '2026-01-01T00:00:00.000Z')",
  ).run();
  assert.deepEqual(migrateTo(db, 12), [12]);
  assert.deepEqual(db.prepare("SELECT sent_at, sent_by FROM notifications").all(), [
    { sent_at: "2026-01-01T00:00:00.000Z", sent_by: "before-012" },
  ]);
});
