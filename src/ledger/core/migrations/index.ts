// The ordered list of schema migrations: history.ts's names with their bodies. Append only: a shipped migration is never
// edited or renumbered.
// The migrator refuses a database whose applied history is not a prefix of this list
// (docs/decisions/command-pattern.md).

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
import { sql as m016 } from "./016-findings.js";
import { sql as m018 } from "./018-groups.js";
import { sql as m019 } from "./019-egress.js";
import { MIGRATION_HISTORY, type MigrationName } from "./history.js";

export interface Migration extends MigrationName {
  /** Plain DDL, run in one transaction. */
  sql?: string;
  /** A table rebuild: run with foreign keys off (they are checked before commit), in one transaction. */
  rebuild?: (db: Database.Database) => void;
}

const BODIES: Record<number, Pick<Migration, "sql" | "rebuild">> = {
  1: { sql: m001 },
  3: { sql: m003 },
  4: { sql: m004 },
  5: { sql: m005 },
  6: { sql: m006 },
  7: { rebuild: m007 },
  8: { sql: m008 },
  9: { sql: m009 },
  10: { sql: m010 },
  11: { sql: m011 },
  12: { sql: m012 },
  15: { sql: m015 },
  16: { sql: m016 },
  18: { sql: m018 },
  19: { sql: m019 },
};

/** The history (migrations/history.ts) with each version's body. */
export const MIGRATIONS: readonly Migration[] = MIGRATION_HISTORY.map((h) => ({ ...h, ...BODIES[h.version] }));
