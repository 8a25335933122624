// Which SQLite error codes mean what, without loading SQLite: callers on error paths stay cheap and never fail to load.
// better-sqlite3 reports extended result codes as strings (SQLITE_CORRUPT_VTAB, SQLITE_READONLY_DBMOVED, …).

/** True for SQLite's "database disk image is malformed" family and "file is not a database". */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB");
}
