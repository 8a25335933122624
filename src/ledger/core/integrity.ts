// Ledger integrity: SQLite's own quick_check, run when SQLite reports corruption and by `docket doctor`.
// It reads the file without migrating or writing, so checking a damaged ledger never damages it further.

import { openReadOnlyRaw } from "./read-only.js";
import { isCorruption } from "./sqlite-errors.js";

export type IntegrityResult = { ok: true } | { ok: false; problems: string[] };

/** Runs `PRAGMA quick_check` on the ledger file; at most `maxProblems` lines come back when it is damaged. */
export function checkLedgerIntegrity(path: string, maxProblems = 10): IntegrityResult {
  let db;
  try {
    db = openReadOnlyRaw(path);
  } catch (error) {
    if (isCorruption(error)) return { ok: false, problems: [(error as Error).message] };
    throw error;
  }
  try {
    const rows = db.pragma(`quick_check(${Math.max(1, Math.floor(maxProblems))})`) as { quick_check: string }[];
    const lines = rows.flatMap((r) => r.quick_check.split("\n")).filter((l) => l.trim() !== "");
    return lines.length === 1 && lines[0] === "ok" ? { ok: true } : { ok: false, problems: lines };
  } catch (error) {
    if (isCorruption(error)) return { ok: false, problems: [(error as Error).message] };
    throw error;
  } finally {
    db.close();
  }
}
