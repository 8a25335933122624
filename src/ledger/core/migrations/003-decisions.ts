// Migration 003: the decision ledger (append-only, enforced by triggers), decision debt, and parent chips.
// A judgment is history: no UPDATE or DELETE of a decision row succeeds, even through raw SQL
// (docs/decisions/immutable-deliverables.md).

export const sql = /* sql */ `
CREATE TABLE decisions (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  at TEXT NOT NULL,
  actor TEXT NOT NULL CHECK (actor IN ('human','parent-agent','system')),
  verb TEXT NOT NULL CHECK (length(verb) > 0),
  worker TEXT NOT NULL,
  deliverable_id TEXT,
  deliverable_version INTEGER,
  deliverable_ref TEXT,
  option TEXT,
  note TEXT,
  risk TEXT,
  question TEXT,
  evidence_refs TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX decisions_worker ON decisions(worker, seq);
CREATE INDEX decisions_ref ON decisions(deliverable_ref, seq);
CREATE INDEX decisions_at ON decisions(at);

CREATE TRIGGER decisions_refuse_update BEFORE UPDATE ON decisions
BEGIN SELECT RAISE(ABORT, 'decisions are append-only: a decision row cannot be updated'); END;
CREATE TRIGGER decisions_refuse_delete BEFORE DELETE ON decisions
BEGIN SELECT RAISE(ABORT, 'decisions are append-only: a decision row cannot be deleted'); END;

CREATE TABLE decision_debt (
  id INTEGER PRIMARY KEY,
  worker TEXT NOT NULL,
  deliverable_ref TEXT,
  state TEXT,
  reason TEXT NOT NULL DEFAULT 'pruned',
  at TEXT NOT NULL
);
CREATE INDEX decision_debt_at ON decision_debt(at);
CREATE TRIGGER decision_debt_refuse_update BEFORE UPDATE ON decision_debt
BEGIN SELECT RAISE(ABORT, 'decision debt is append-only'); END;
CREATE TRIGGER decision_debt_refuse_delete BEFORE DELETE ON decision_debt
BEGIN SELECT RAISE(ABORT, 'decision debt is append-only'); END;

CREATE TABLE chips (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  worker TEXT,
  ref TEXT NOT NULL,
  project_root TEXT NOT NULL,
  body TEXT NOT NULL,
  decision TEXT REFERENCES decisions(id),
  state TEXT NOT NULL CHECK (state IN ('queued','consumed','dropped')),
  created_at TEXT NOT NULL,
  consumed_at TEXT,
  dropped_at TEXT
);
CREATE INDEX chips_state ON chips(state, project_root);
`;
