// Worker notes (docket_note): a notice for the human with suggested recipients, and the notification that shows it.
// A note never changes the worker's state, is never routed to anyone, and is never a deliverable.

import { asStringList, jsonColumn } from "../core/json-columns.js";
import { formatId } from "../../domain/ids.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface NoteRow {
  id: string;
  worker: string;
  generation: number;
  text: string;
  suggested: string[];
  notification: string | null;
  createdAt: string;
}

export function insertNote(
  tx: Tx,
  n: { worker: string; generation: number; text: string; suggested: readonly string[]; notification: string },
): string {
  const seq = tx.next("note");
  const id = formatId("note", seq);
  statement(
    tx.db,
    "INSERT INTO notes (id, seq, worker, generation, text, suggested, notification, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  ).run(id, seq, n.worker, n.generation, n.text, JSON.stringify(n.suggested), n.notification, tx.now);
  return id;
}

interface Row {
  id: string;
  worker: string;
  generation: number;
  text: string;
  suggested: string;
  notification: string | null;
  created_at: string;
}

const fromRow = (r: Row): NoteRow => ({
  id: r.id,
  worker: r.worker,
  generation: r.generation,
  text: r.text,
  suggested: jsonColumn(r.suggested, asStringList, { table: "notes", column: "suggested", id: r.id }),
  notification: r.notification,
  createdAt: r.created_at,
});

/** A note by its id (`nt<N>`) or by the notification that shows it (`n<N>`). */
export function getNote(db: Db, id: string): NoteRow | undefined {
  const r = statement(db, "SELECT * FROM notes WHERE id = ? OR notification = ?").get(id, id) as Row | undefined;
  return r && fromRow(r);
}

/** Notes whose notification the human has not dismissed, per worker: the dock's `N shared`. */
export function undismissedNoteCounts(db: Db): Map<string, number> {
  const rows = statement(
    db,
    `SELECT nt.worker AS worker, count(*) AS n FROM notes nt JOIN notifications n ON n.id = nt.notification
     WHERE n.dismissed_at IS NULL GROUP BY nt.worker`,
  ).all() as { worker: string; n: number }[];
  return new Map(rows.map((r) => [r.worker, r.n]));
}

/** How many of a worker's notes the human has not dismissed: what the per-worker cap counts. */
export function openNoteCount(db: Db, worker: string): number {
  return (
    statement(
      db,
      `SELECT count(*) AS n FROM notes nt JOIN notifications n ON n.id = nt.notification
     WHERE nt.worker = ? AND n.dismissed_at IS NULL`,
    ).get(worker) as { n: number }
  ).n;
}

/** A worker's notes the human has not dismissed yet, oldest first: what its card shows. */
export function openNotesOf(db: Db, worker: string): NoteRow[] {
  const rows = statement(
    db,
    `SELECT nt.* FROM notes nt JOIN notifications n ON n.id = nt.notification
     WHERE nt.worker = ? AND n.dismissed_at IS NULL ORDER BY nt.seq`,
  ).all(worker) as Row[];
  return rows.map(fromRow);
}
