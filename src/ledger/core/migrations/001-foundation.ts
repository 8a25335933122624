// Migration 001: the work ledger — counters, idempotency, outbox, items, workers, dispatch, reports.
// Every table that must change together with another lives here, in one SQLite file
// (docs/decisions/command-pattern.md).

export const sql = /* sql */ `
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);

CREATE TABLE idempotency (
  key TEXT PRIMARY KEY,
  command TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  result TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL,
  done_at TEXT
);
CREATE INDEX outbox_pending ON outbox(done_at) WHERE done_at IS NULL;

CREATE TABLE items (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('todo','request')),
  text TEXT NOT NULL,
  revision INTEGER NOT NULL CHECK (revision >= 1),
  state TEXT NOT NULL CHECK (state IN ('open','done','abandoned','closed')),
  closing_note TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE replies (
  id TEXT PRIMARY KEY,
  item TEXT NOT NULL REFERENCES items(id),
  text TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('unanswered','answered')),
  answer TEXT,
  answered_by TEXT,
  created_at TEXT NOT NULL,
  answered_at TEXT
);
CREATE INDEX replies_item ON replies(item);

CREATE TABLE workers (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  task TEXT NOT NULL,
  kind TEXT NOT NULL,
  agent TEXT NOT NULL CHECK (agent IN ('pi','command')),
  command TEXT,
  execution TEXT NOT NULL,
  env TEXT NOT NULL DEFAULT '{}',
  cwd TEXT NOT NULL,
  project_root TEXT NOT NULL,
  workspace TEXT NOT NULL,
  workspace_mode TEXT NOT NULL CHECK (workspace_mode IN ('isolated','shared')),
  base TEXT,
  base_head TEXT,
  generation INTEGER NOT NULL CHECK (generation >= 1),
  run_token TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('starting','active','idle','needs_input','ready','failed','ended')),
  exited INTEGER NOT NULL DEFAULT 0,
  exit_code INTEGER,
  exited_at TEXT,
  tmux_session TEXT,
  window_id TEXT,
  pane_id TEXT,
  heartbeat_at TEXT,
  pid INTEGER,
  model_in_effect TEXT,
  thinking_in_effect TEXT,
  deliverable_id TEXT,
  deliverable_version INTEGER,
  deliverable_ref TEXT,
  summary TEXT,
  outcome TEXT,
  last_error TEXT,
  todos TEXT NOT NULL DEFAULT '[]',
  source_handoff TEXT,
  pane_captured_at TEXT,
  reviewed_at TEXT,
  settled_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  deleted_at TEXT
);

CREATE TABLE launches (
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  run_token TEXT NOT NULL,
  started_at TEXT NOT NULL,
  exited_at TEXT,
  exit_code INTEGER,
  PRIMARY KEY (worker, generation)
);

CREATE TABLE dispatches (
  id TEXT PRIMARY KEY,
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active','resolved')),
  created_at TEXT NOT NULL,
  resolved_at TEXT
);

CREATE TABLE bindings (
  id TEXT PRIMARY KEY,
  dispatch TEXT NOT NULL REFERENCES dispatches(id),
  item TEXT NOT NULL REFERENCES items(id),
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  accepted_revision INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('active','resolved')),
  created_at TEXT NOT NULL,
  resolved_at TEXT
);
CREATE UNIQUE INDEX bindings_one_active_per_item ON bindings(item) WHERE state = 'active';
CREATE INDEX bindings_worker ON bindings(worker, state);
CREATE INDEX bindings_dispatch ON bindings(dispatch, state);

CREATE TABLE obligations (
  id TEXT PRIMARY KEY,
  binding TEXT NOT NULL UNIQUE REFERENCES bindings(id),
  item TEXT NOT NULL REFERENCES items(id),
  worker TEXT NOT NULL REFERENCES workers(id),
  state TEXT NOT NULL CHECK (state IN ('owed','resolved')),
  due_at TEXT NOT NULL,
  parked_until TEXT,
  disposition TEXT,
  created_at TEXT NOT NULL,
  resolved_at TEXT
);
CREATE INDEX obligations_state ON obligations(state, due_at);

CREATE TABLE reports (
  id TEXT PRIMARY KEY,
  item TEXT NOT NULL REFERENCES items(id),
  binding TEXT NOT NULL REFERENCES bindings(id),
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('done','released','abandoned','blocked')),
  body TEXT NOT NULL CHECK (length(trim(body)) > 0),
  evidence TEXT NOT NULL DEFAULT '[]',
  for_human TEXT NOT NULL DEFAULT '[]',
  answers TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);
CREATE INDEX reports_item ON reports(item);

CREATE TABLE messages (
  id TEXT PRIMARY KEY,
  worker TEXT NOT NULL REFERENCES workers(id),
  kind TEXT NOT NULL CHECK (kind IN ('work','reply_review','tell','answer','review_note')),
  body TEXT NOT NULL,
  question TEXT,
  dispatch TEXT,
  binding TEXT,
  deliver_as TEXT NOT NULL DEFAULT 'steer' CHECK (deliver_as IN ('steer','followUp')),
  delivery TEXT NOT NULL CHECK (delivery IN ('queued','delivered','read','cancelled')),
  delivered_generation INTEGER,
  created_at TEXT NOT NULL,
  delivered_at TEXT,
  read_at TEXT
);
CREATE INDEX messages_worker ON messages(worker, delivery);

CREATE TABLE questions (
  id TEXT PRIMARY KEY,
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  text TEXT NOT NULL,
  options TEXT NOT NULL DEFAULT '[]',
  recommend TEXT,
  risk TEXT,
  state TEXT NOT NULL CHECK (state IN ('open','answered','dropped')),
  answer TEXT,
  created_at TEXT NOT NULL,
  answered_at TEXT
);
CREATE INDEX questions_worker ON questions(worker, state);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  worker TEXT,
  item TEXT,
  report TEXT,
  body TEXT NOT NULL,
  for_human TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  delivered_at TEXT,
  dismissed_at TEXT
);
CREATE INDEX notifications_pending ON notifications(dismissed_at);
`;
