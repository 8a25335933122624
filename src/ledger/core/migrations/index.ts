// The ordered list of schema migrations. Append only: a shipped migration is never edited or renumbered.
// The migrator refuses a database whose applied history is not a prefix of this list (STYLE §15).

import { sql as m001 } from "./001-foundation.js";
import { sql as m003 } from "./003-decisions.js";
import { sql as m004 } from "./004-store-index.js";
import { sql as m005 } from "./005-run-token-hashes.js";
import { sql as m006 } from "./006-content-binding.js";
import { run as m007 } from "./007-agents.js";
import type Database from "better-sqlite3";
import { sql as m008 } from "./008-lean-indexes.js";
import { sql as m009 } from "./009-coordination.js";
import { sql as m010 } from "./010-shown.js";
import { sql as m011 } from "./011-review-comments.js";
import { sql as m012 } from "./012-notify-spend.js";
import { sql as m015 } from "./015-contained.js";

export interface Migration {
  version: number;
  name: string;
  /** Plain DDL, run in one transaction. */
  sql?: string;
  /** A table rebuild: run with foreign keys off (they are checked before commit), in one transaction. */
  rebuild?: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "foundation", sql: m001 },
  { version: 3, name: "decisions", sql: m003 },
  { version: 4, name: "store-index", sql: m004 },
  { version: 5, name: "run-token-hashes", sql: m005 },
  { version: 6, name: "content-binding", sql: m006 },
  { version: 7, name: "agents", rebuild: m007 },
  { version: 8, name: "lean-indexes", sql: m008 },
  { version: 9, name: "coordination", sql: m009 },
  { version: 10, name: "shown", sql: m010 },
  { version: 11, name: "review-comments", sql: m011 },
  { version: 12, name: "notify-spend", sql: m012 },
  { version: 15, name: "contained", sql: m015 },
];
