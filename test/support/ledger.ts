// A real, migrated SQLite ledger file in a temp dir.

import { join } from "node:path";
import { openLedger, type Db } from "../../src/ledger/core/open.js";

export function ledgerAt(dir: string): Db {
  return openLedger(join(dir, "ledger.sqlite"));
}
