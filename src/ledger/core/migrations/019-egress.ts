// Migration 019: what each contained worker's egress proxy let through or refused, summed per host, port and minute
// (docs/containment.md). One row per minute and destination keeps the write volume bounded under a busy agent.

export const sql = /* sql */ `
CREATE TABLE worker_egress (
  worker TEXT NOT NULL,
  generation INTEGER NOT NULL,
  host TEXT NOT NULL,
  port INTEGER NOT NULL,
  allowed INTEGER NOT NULL,
  minute TEXT NOT NULL,
  requests INTEGER NOT NULL,
  bytes_up INTEGER NOT NULL,
  bytes_down INTEGER NOT NULL,
  first_at TEXT NOT NULL,
  last_at TEXT NOT NULL,
  PRIMARY KEY (worker, host, port, allowed, minute, generation)
);
`;
