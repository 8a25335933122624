// Migration 006: approval binds content — decisions record the sha256 of the bytes judged, stored records are pinned.
// Pins outlive index rebuilds (the index mirrors the files; a pin is what the files must still match)
// (docs/decisions/authority.md).

export const sql = /* sql */ `
ALTER TABLE decisions ADD COLUMN content_sha256 TEXT;

-- The sha256 of a stored record's file when this ledger saved it or first saw it; never replaced while the version exists.
CREATE TABLE stored_pins (
  id TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  sha256 TEXT NOT NULL,
  pinned_at TEXT NOT NULL,
  PRIMARY KEY (id, version)
);

-- Every indexed id directory is read once more, so records indexed before this migration get their pins.
UPDATE store_stamps SET stamp = 'dirty' WHERE name <> '/';
`;
