// Migration 009: coordination across workers — consults, notes, broadcasts, the project journal, touched paths, Combine.
// SQLite cannot widen a CHECK in place, so `messages` is rebuilt (every row and column kept); the rest only adds.

export const sql = /* sql */ `
-- Messages: a broadcast kind, next-turn delivery, and how a delivery was observed (claimed from the inbox, pasted into a pane).
CREATE TABLE messages_009 (
  id TEXT PRIMARY KEY,
  worker TEXT NOT NULL REFERENCES workers(id),
  kind TEXT NOT NULL CHECK (kind IN ('work','reply_review','tell','answer','review_note','broadcast')),
  body TEXT NOT NULL,
  question TEXT,
  dispatch TEXT,
  binding TEXT,
  deliver_as TEXT NOT NULL DEFAULT 'steer' CHECK (deliver_as IN ('steer','followUp','nextTurn')),
  delivery TEXT NOT NULL CHECK (delivery IN ('queued','delivered','read','cancelled')),
  delivered_generation INTEGER,
  created_at TEXT NOT NULL,
  delivered_at TEXT,
  read_at TEXT,
  delivered_via TEXT CHECK (delivered_via IN ('inbox','pane')),
  from_actor TEXT NOT NULL DEFAULT 'human' CHECK (from_actor IN ('human','parent-agent'))
);
INSERT INTO messages_009 (id, worker, kind, body, question, dispatch, binding, deliver_as, delivery, delivered_generation, created_at, delivered_at, read_at, delivered_via)
  SELECT id, worker, kind, body, question, dispatch, binding, deliver_as, delivery, delivered_generation, created_at, delivered_at, read_at,
         CASE WHEN delivered_at IS NOT NULL THEN 'inbox' END
    FROM messages;
DROP TABLE messages;
ALTER TABLE messages_009 RENAME TO messages;
CREATE INDEX messages_worker ON messages(worker, delivery);

-- Questions: a consult is a question whose audience is the parent agent until answered or escalated to the human.
ALTER TABLE questions ADD COLUMN consult INTEGER NOT NULL DEFAULT 0;
ALTER TABLE questions ADD COLUMN audience TEXT NOT NULL DEFAULT 'human' CHECK (audience IN ('human','parent-agent'));
ALTER TABLE questions ADD COLUMN context TEXT;
ALTER TABLE questions ADD COLUMN escalated_at TEXT;
ALTER TABLE questions ADD COLUMN escalation TEXT;
CREATE INDEX questions_consulting ON questions(audience, state) WHERE audience = 'parent-agent' AND state = 'open';

-- A parent agent answers or escalates consults; it never approves, promotes or judges anything else
-- (docs/decisions/authority.md).
CREATE TRIGGER decisions_parent_agent_only_consults BEFORE INSERT ON decisions
WHEN NEW.actor = 'parent-agent' AND NEW.verb NOT IN ('answer','escalate')
BEGIN SELECT RAISE(ABORT, 'a parent agent may only answer or escalate a consult; it never approves or judges a deliverable'); END;

-- Notes: a worker's notice for the human (never routed, never a deliverable); suggested recipients are only a suggestion.
CREATE TABLE notes (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  text TEXT NOT NULL CHECK (length(trim(text)) > 0),
  suggested TEXT NOT NULL DEFAULT '[]',
  notification TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX notes_worker ON notes(worker, seq);

-- The project journal: what landed (promotions, crediting every contributing worker) and what was posted to everyone.
CREATE TABLE journal (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  at TEXT NOT NULL,
  project_root TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('promoted','broadcast','note')),
  from_label TEXT NOT NULL,
  text TEXT NOT NULL,
  paths TEXT NOT NULL DEFAULT '[]',
  ref TEXT,
  workers TEXT NOT NULL DEFAULT '[]',
  decision TEXT
);
CREATE INDEX journal_project ON journal(project_root, seq);
CREATE TRIGGER journal_refuse_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the project journal is append-only: an entry cannot be updated'); END;
CREATE TRIGGER journal_refuse_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the project journal is append-only: an entry cannot be deleted'); END;

-- Paths a worker read or edited, in project coordinates (its worktree prefix removed), first time seen.
CREATE TABLE touched_paths (
  worker TEXT NOT NULL REFERENCES workers(id),
  path TEXT NOT NULL,
  how TEXT NOT NULL CHECK (how IN ('read','edit')),
  first_at TEXT NOT NULL,
  PRIMARY KEY (worker, path, how)
);

-- Combine: a three-way merge of two frozen change sets; at most one waits for the human's resolution per project.
CREATE TABLE combinations (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  project_root TEXT NOT NULL,
  key TEXT NOT NULL,
  sources TEXT NOT NULL,
  base TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('resolving','frozen','aborted')),
  contested TEXT NOT NULL DEFAULT '[]',
  scratch TEXT,
  result_ref TEXT,
  created_at TEXT NOT NULL,
  settled_at TEXT
);
CREATE UNIQUE INDEX combinations_one_resolving ON combinations(project_root) WHERE state = 'resolving';
CREATE INDEX combinations_result ON combinations(result_ref);
`;
