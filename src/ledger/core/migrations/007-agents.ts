// Migration 007: workers may run Claude Code or Codex (agent 'claude' | 'codex') beside pi and any command.
// SQLite cannot alter a CHECK: the workers table is rebuilt from its own current definition, so every column stays.

import type Database from "better-sqlite3";

const OLD_CHECK = "CHECK (agent IN ('pi','command'))";
const NEW_CHECK = "CHECK (agent IN ('pi','command','claude','codex'))";

export function run(db: Database.Database): void {
  const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'workers'").get() as
    | { sql: string }
    | undefined;
  if (!table?.sql.includes(OLD_CHECK))
    throw new Error("migration 007: the workers table does not have the agent check this migration widens");
  const others = db
    .prepare(
      "SELECT sql FROM sqlite_master WHERE tbl_name = 'workers' AND type IN ('index','trigger') AND sql IS NOT NULL",
    )
    .all() as { sql: string }[];
  db.exec(table.sql.replace(OLD_CHECK, NEW_CHECK).replace(/^CREATE TABLE (")?workers(")?/, "CREATE TABLE workers_new"));
  db.exec(
    "INSERT INTO workers_new SELECT * FROM workers; DROP TABLE workers; ALTER TABLE workers_new RENAME TO workers;",
  );
  for (const o of others) db.exec(o.sql);
}
