// Migration 012: notifications sent outside the terminal exactly once (claimed rows), and spend per worker and version
// read incrementally from each agent's own records, with budgets. Only adds; old rows count as already sent.

export const sql = /* sql */ `
ALTER TABLE notifications ADD COLUMN ref TEXT;
ALTER TABLE notifications ADD COLUMN sent_at TEXT;
ALTER TABLE notifications ADD COLUMN sent_by TEXT;
UPDATE notifications SET sent_at = created_at, sent_by = 'before-012';
CREATE INDEX notifications_unsent ON notifications(created_at) WHERE sent_at IS NULL;

ALTER TABLE workers ADD COLUMN budget_usd REAL CHECK (budget_usd IS NULL OR budget_usd > 0);
ALTER TABLE workers ADD COLUMN budget_warned_at TEXT;
ALTER TABLE workers ADD COLUMN budget_stopped_at TEXT;

-- How far each of a worker's agent record files was read: a repeat read starts at offset (identity: dev:ino:generation).
CREATE TABLE spend_sources (
  worker TEXT NOT NULL REFERENCES workers(id),
  path TEXT NOT NULL,
  identity TEXT NOT NULL,
  offset INTEGER NOT NULL CHECK (offset >= 0),
  -- What a reader must carry to the next read: Claude's last message id (one message spans lines), Codex's model.
  carry TEXT,
  PRIMARY KEY (worker, path)
);

-- Tokens and cost summed per worker, generation, the version they led to, day and model.
CREATE TABLE spend (
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  version INTEGER NOT NULL,
  day TEXT NOT NULL,
  model TEXT NOT NULL,
  input INTEGER NOT NULL DEFAULT 0,
  output INTEGER NOT NULL DEFAULT 0,
  cache_read INTEGER NOT NULL DEFAULT 0,
  cache_write INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0,
  unpriced INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (worker, generation, version, day, model)
);

-- When each deliverable version was frozen: usage before it belongs to it.
CREATE TABLE version_marks (
  worker TEXT NOT NULL REFERENCES workers(id),
  version INTEGER NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (worker, version)
);
`;
