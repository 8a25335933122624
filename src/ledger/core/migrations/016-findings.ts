// Migration 016: what observers found about a worker's generation: its agent said it cannot go on
// (blocked), it showed no progress (stuck), or Docket refused one of its calls (refused). Open until cleared.

export const sql = /* sql */ `
CREATE TABLE worker_findings (
  id INTEGER PRIMARY KEY,
  worker TEXT NOT NULL REFERENCES workers(id),
  generation INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('blocked','stuck','refused')),
  text TEXT NOT NULL,
  found_at TEXT NOT NULL,
  cleared_at TEXT
);
CREATE INDEX worker_findings_open ON worker_findings (worker, kind) WHERE cleared_at IS NULL;
`;
