// A per-connection cache of prepared statements, keyed by SQL text: preparing costs more than running.
// Statements are plain better-sqlite3 ones; reusing them inside or outside a transaction is safe.

import type Database from "better-sqlite3";

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function statement(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
