// Migration 004: the ledger's index of the DeliverableStore files, their change stamps, and the d<N> load slots.
// The files stay authoritative; this index is rebuildable from them at any time so listing never scans
// (docs/decisions/deliverable-store.md).

export const sql = /* sql */ `
CREATE TABLE stored_deliverables (
  id TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  ref TEXT NOT NULL,
  outcome TEXT,
  summary TEXT,
  saved_at TEXT,
  source_kind TEXT,
  path TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok','unsupported')),
  reason TEXT,
  detail TEXT,
  PRIMARY KEY (id, version)
);
CREATE INDEX stored_deliverables_listing ON stored_deliverables(saved_at DESC, id DESC, version DESC);

-- name '/' is the store's top directory; any other name is one id directory. stamp 'dirty' forces a rescan.
CREATE TABLE store_stamps (name TEXT PRIMARY KEY, stamp TEXT NOT NULL);
CREATE INDEX store_stamps_dirty ON store_stamps(stamp) WHERE stamp = 'dirty';

CREATE TABLE slots (
  id TEXT PRIMARY KEY,
  ref TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('stored','legacy')),
  loaded_at TEXT NOT NULL,
  unloaded_at TEXT
);
CREATE INDEX slots_active ON slots(ref) WHERE unloaded_at IS NULL;
`;
