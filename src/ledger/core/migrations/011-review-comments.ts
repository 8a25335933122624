// Migration 011: review comments — the human's drafts on lines of one exact frozen version, bound to its sha256.
// A draft may be edited or deleted; once sent with a revise decision it is part of that decision and never changes.

export const sql = /* sql */ `
CREATE TABLE review_comments (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  worker TEXT NOT NULL REFERENCES workers(id),
  deliverable_ref TEXT NOT NULL,
  deliverable_version INTEGER NOT NULL CHECK (deliverable_version >= 1),
  content_sha256 TEXT NOT NULL,
  file TEXT NOT NULL,
  side TEXT NOT NULL CHECK (side IN ('old','new')),
  line_start INTEGER,
  line_end INTEGER,
  text TEXT NOT NULL CHECK (length(trim(text)) > 0),
  state TEXT NOT NULL CHECK (state IN ('draft','sent','deleted')),
  decision TEXT REFERENCES decisions(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((line_start IS NULL AND line_end IS NULL) OR (line_start >= 1 AND line_end >= line_start)),
  CHECK ((state = 'sent') = (decision IS NOT NULL))
);
CREATE INDEX review_comments_ref ON review_comments(deliverable_ref, state);
CREATE INDEX review_comments_decision ON review_comments(decision) WHERE decision IS NOT NULL;

CREATE TRIGGER review_comments_sent_final BEFORE UPDATE ON review_comments
WHEN OLD.state <> 'draft'
BEGIN SELECT RAISE(ABORT, 'a sent or deleted review comment never changes'); END;

CREATE TRIGGER review_comments_kept BEFORE DELETE ON review_comments
BEGIN SELECT RAISE(ABORT, 'review comments are never removed; a deleted draft keeps its row'); END;
`;
