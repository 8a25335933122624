// Migration 010: the version of each worker last shown to the human (a card, a report, a diff; CLI, web or pi).
// One row per worker, replaced on every view: a bare-id judgment is refused when it is not the current version.

export const sql = /* sql */ `
CREATE TABLE shown (
  worker TEXT PRIMARY KEY REFERENCES workers(id),
  ref TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version > 0),
  surface TEXT NOT NULL CHECK (surface IN ('cli','web','pi')),
  at TEXT NOT NULL
);
`;
