// The project journal in SQL: append-only entries (the schema's triggers refuse UPDATE and DELETE), read per project.
// Every append queues the rendering of the project's journal file, so the file follows the ledger.

import { asStringList, jsonColumn, stringList } from "../core/json-columns.js";
import type { JournalEntry, JournalKind } from "../../domain/talk/journal.js";
import type { LandedPromotion } from "../../domain/review/base-moved.js";
import { formatId } from "../../domain/ids.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface NewJournalEntry {
  projectRoot: string;
  kind: JournalKind;
  from: string;
  text: string;
  paths?: readonly string[];
  ref?: string | null;
  workers?: readonly string[];
  decision?: string | null;
}

interface JournalRow {
  id: string;
  at: string;
  kind: JournalKind;
  from_label: string;
  text: string;
  paths: string;
  ref: string | null;
  workers: string;
}

const fromRow = (r: JournalRow): JournalEntry => ({
  id: r.id,
  at: r.at,
  kind: r.kind,
  from: r.from_label,
  text: r.text,
  paths: jsonColumn(r.paths, asStringList, { table: "journal", column: "paths", id: r.id }),
  ref: r.ref,
  workers: jsonColumn(r.workers, asStringList, { table: "journal", column: "workers", id: r.id }),
});

/** Appends one entry (`j<N>`) at the command's time and queues the re-rendering of that project's journal file. */
export function insertJournalEntry(tx: Tx, e: NewJournalEntry): string {
  const seq = tx.next("journal");
  const id = formatId("journal", seq);
  statement(
    tx.db,
    "INSERT INTO journal (id, seq, at, project_root, kind, from_label, text, paths, ref, workers, decision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ).run(
    id,
    seq,
    tx.now,
    e.projectRoot,
    e.kind,
    e.from,
    e.text,
    JSON.stringify(e.paths ?? []),
    e.ref ?? null,
    JSON.stringify(e.workers ?? []),
    e.decision ?? null,
  );
  tx.emit("journal.render", { projectRoot: e.projectRoot });
  return id;
}

/** A project's entries, oldest first. */
export function listJournal(db: Db, projectRoot: string): JournalEntry[] {
  return (
    statement(
      db,
      "SELECT id, at, kind, from_label, text, paths, ref, workers FROM journal WHERE project_root = ? ORDER BY seq",
    ).all(projectRoot) as JournalRow[]
  ).map(fromRow);
}

/** A project's promotions at or after `since` (ISO), oldest first: what base-moved is derived from. */
export function landedSince(db: Db, projectRoot: string, since: string): LandedPromotion[] {
  const rows = statement(
    db,
    "SELECT at, paths, workers, ref FROM journal WHERE project_root = ? AND kind = 'promoted' AND at >= ? ORDER BY seq",
  ).all(projectRoot, since) as { at: string; paths: string; workers: string; ref: string | null }[];
  return rows.map((r) => ({
    at: r.at,
    paths: stringList(r.paths) ?? [],
    workers: stringList(r.workers) ?? [],
    ref: r.ref,
  }));
}
