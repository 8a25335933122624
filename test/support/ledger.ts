// A real, migrated SQLite ledger file in a temp dir.

import { join } from "node:path";
import { openLedger, type Db } from "../../src/ledger/open.js";

export function ledgerAt(dir: string): Db {
  return openLedger(join(dir, "ledger.sqlite"));
}
