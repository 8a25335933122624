// Migration 018: best-of-N groups — one row per group over independent workers (its candidates), the comparison last
// shown to the human (what `choose` is bound to), its choice, and a budget over the group's total spend.

export const sql = /* sql */ `
CREATE TABLE worker_groups (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  task TEXT NOT NULL,
  project_root TEXT NOT NULL,
  size INTEGER NOT NULL CHECK (size >= 2),
  budget_usd REAL CHECK (budget_usd IS NULL OR budget_usd > 0),
  budget_warned_at TEXT,
  budget_stopped_at TEXT,
  -- JSON [{worker, ref, sha256}]: every candidate's current version as the last comparison showed it.
  shown TEXT,
  shown_surface TEXT CHECK (shown_surface IS NULL OR shown_surface IN ('cli','web','pi')),
  shown_at TEXT,
  chosen_ref TEXT,
  chosen_decision TEXT REFERENCES decisions(id),
  chosen_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX worker_groups_project ON worker_groups(project_root, seq);

CREATE TABLE group_candidates (
  group_id TEXT NOT NULL REFERENCES worker_groups(id),
  position INTEGER NOT NULL CHECK (position >= 1),
  worker TEXT NOT NULL UNIQUE REFERENCES workers(id),
  PRIMARY KEY (group_id, position)
);
`;
