// Whole-state snapshots for "nothing was written" checks: every row of every ledger table, and a directory tree.
// A refused call must leave both exactly as they were.

import { lstatSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import Database from "better-sqlite3";

/** Every row of every table of the ledger file at `path`, read through its own read-only connection. */
export function ledgerRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    ).map((r) => r.name);
    return Object.fromEntries(tables.map((name) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()]));
  } finally {
    db.close();
  }
}

/**
 * Every entry under `dir` with its kind, size and modification time. The ledger's files are left out (compare its
 * rows with ledgerRows: a reader closing the last connection checkpoints the WAL without any logical write).
 */
export function fileTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (/^ledger\.sqlite(-wal|-shm)?$/.test(name) || name === ".git") continue;
      const s = lstatSync(path);
      out[relative(dir, path)] =
        `${s.isDirectory() ? "dir" : s.isSymbolicLink() ? "link" : "file"} ${s.isDirectory() ? "" : s.size} ${s.mtimeMs}`;
      if (s.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}
