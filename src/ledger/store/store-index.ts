// The ledger's index of the DeliverableStore (rows per version file, change stamps) and the d<N> load slots.
// Rows mirror the files and can be thrown away and rebuilt; slots are ledger state (which ref is mounted where).

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { formatId } from "../../domain/ids.js";
import { statement } from "../core/statements.js";

export interface IndexRow {
  id: string;
  version: number;
  ref: string;
  outcome: string | null;
  summary: string | null;
  savedAt: string | null;
  sourceKind: string | null;
  path: string;
  status: "ok" | "unsupported";
  reason: string | null;
  detail: string | null;
}

export interface SlotRow {
  id: string;
  ref: string;
  kind: "stored" | "legacy";
  loadedAt: string;
  unloadedAt: string | null;
}

const INDEX_COLUMNS =
  "id, version, ref, outcome, summary, saved_at AS savedAt, source_kind AS sourceKind, path, status, reason, detail";
const SLOT_COLUMNS = "id, ref, kind, loaded_at AS loadedAt, unloaded_at AS unloadedAt";

export const ROOT_STAMP = "/";
export const DIRTY = "dirty";

const INSERT_ROW = `INSERT INTO stored_deliverables (id, version, ref, outcome, summary, saved_at, source_kind, path, status, reason, detail)
  VALUES (@id, @version, @ref, @outcome, @summary, @savedAt, @sourceKind, @path, @status, @reason, @detail)
  ON CONFLICT(id, version) DO UPDATE SET ref = excluded.ref, outcome = excluded.outcome, summary = excluded.summary,
    saved_at = excluded.saved_at, source_kind = excluded.source_kind, path = excluded.path, status = excluded.status,
    reason = excluded.reason, detail = excluded.detail`;

export function upsertIndexRow(tx: Tx, row: IndexRow): void {
  statement(tx.db, INSERT_ROW).run(row);
}

export function deleteIndexRow(tx: Tx, id: string, version: number): void {
  statement(tx.db, "DELETE FROM stored_deliverables WHERE id = ? AND version = ?").run(id, version);
}

export function setStamp(tx: Tx, name: string, stamp: string): void {
  statement(
    tx.db,
    "INSERT INTO store_stamps (name, stamp) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET stamp = excluded.stamp",
  ).run(name, stamp);
}

/** Replaces everything known about one id directory with what a scan of it found. */
export function replaceIdRows(tx: Tx, id: string, rows: readonly IndexRow[], stamp: string): void {
  statement(tx.db, "DELETE FROM stored_deliverables WHERE id = ?").run(id);
  const insert = statement(tx.db, INSERT_ROW);
  for (const row of rows) insert.run(row);
  if (stamp === "absent") statement(tx.db, "DELETE FROM store_stamps WHERE name = ?").run(id);
  else setStamp(tx, id, stamp);
}

/** Throws the whole index away and loads `rows` (a full rebuild from the files). */
export function replaceIndex(tx: Tx, rows: readonly IndexRow[], stamps: ReadonlyMap<string, string>): void {
  tx.db.exec("DELETE FROM stored_deliverables; DELETE FROM store_stamps;");
  const insert = statement(tx.db, INSERT_ROW);
  for (const row of rows) insert.run(row);
  for (const [name, stamp] of stamps) setStamp(tx, name, stamp);
}

export function readStamps(db: Db): Map<string, string> {
  const rows = statement(db, "SELECT name, stamp FROM store_stamps").all() as { name: string; stamp: string }[];
  return new Map(rows.map((r) => [r.name, r.stamp]));
}

export function readStamp(db: Db, name: string): string | undefined {
  return (statement(db, "SELECT stamp FROM store_stamps WHERE name = ?").get(name) as { stamp: string } | undefined)
    ?.stamp;
}

export function rootStamp(db: Db): string | undefined {
  return readStamp(db, ROOT_STAMP);
}

export function dirtyIds(db: Db): string[] {
  return (
    statement(db, "SELECT name FROM store_stamps WHERE stamp = 'dirty' AND name <> ?").all(ROOT_STAMP) as {
      name: string;
    }[]
  ).map((r) => r.name);
}

export type ListingRow = Pick<
  IndexRow,
  "id" | "version" | "ref" | "outcome" | "summary" | "savedAt" | "path" | "status" | "reason" | "detail"
>;

/** Newest first, only the columns a listing shows (10,000 rows must stay a few-millisecond query). */
export function listIndexRows(db: Db): ListingRow[] {
  return statement(
    db,
    "SELECT id, version, ref, outcome, summary, saved_at AS savedAt, path, status, reason, detail FROM stored_deliverables ORDER BY saved_at DESC, id DESC, version DESC",
  ).all() as ListingRow[];
}

export function getIndexRow(db: Db, id: string, version: number): IndexRow | undefined {
  return statement(db, `SELECT ${INDEX_COLUMNS} FROM stored_deliverables WHERE id = ? AND version = ?`).get(
    id,
    version,
  ) as IndexRow | undefined;
}

export function indexRowsForId(db: Db, id: string): IndexRow[] {
  return statement(db, `SELECT ${INDEX_COLUMNS} FROM stored_deliverables WHERE id = ? ORDER BY version`).all(
    id,
  ) as IndexRow[];
}

export function newestOkRow(db: Db): IndexRow | undefined {
  return statement(
    db,
    `SELECT ${INDEX_COLUMNS} FROM stored_deliverables WHERE status = 'ok' ORDER BY saved_at DESC, id DESC, version DESC LIMIT 1`,
  ).get() as IndexRow | undefined;
}

/** Loadable rows whose id or ref starts with `prefix` (a GLOB on the primary key's text, so it uses no scan of files). */
export function indexRowsByPrefix(db: Db, prefix: string, limit = 20): IndexRow[] {
  const escaped = prefix.replace(/[*?[\]]/g, (c) => `[${c}]`);
  return statement(
    db,
    `SELECT ${INDEX_COLUMNS} FROM stored_deliverables WHERE status = 'ok' AND (id GLOB ? OR ref GLOB ?) ORDER BY id, version LIMIT ?`,
  ).all(`${escaped}*`, `${escaped}*`, limit) as IndexRow[];
}

/** Pins a version's bytes the first time this ledger sees them; an existing pin is kept (a later change is tampering). */
export function pinStored(tx: Tx, id: string, version: number, sha256: string): void {
  statement(
    tx.db,
    "INSERT INTO stored_pins (id, version, sha256, pinned_at) VALUES (?, ?, ?, ?) ON CONFLICT(id, version) DO NOTHING",
  ).run(id, version, sha256, tx.now);
}

/** Pins the bytes this ledger has just claimed as a new version file (a version that did not exist before). */
export function repinStored(tx: Tx, id: string, version: number, sha256: string): void {
  statement(
    tx.db,
    "INSERT INTO stored_pins (id, version, sha256, pinned_at) VALUES (?, ?, ?, ?) ON CONFLICT(id, version) DO UPDATE SET sha256 = excluded.sha256, pinned_at = excluded.pinned_at",
  ).run(id, version, sha256, tx.now);
}

export function deletePin(tx: Tx, id: string, version: number): void {
  statement(tx.db, "DELETE FROM stored_pins WHERE id = ? AND version = ?").run(id, version);
}

export function getPin(db: Db, id: string, version: number): string | undefined {
  return (
    statement(db, "SELECT sha256 FROM stored_pins WHERE id = ? AND version = ?").get(id, version) as
      | { sha256: string }
      | undefined
  )?.sha256;
}

export function insertSlot(tx: Tx, ref: string, kind: SlotRow["kind"]): SlotRow {
  const id = formatId("slot", tx.next("slot"));
  statement(tx.db, "INSERT INTO slots (id, ref, kind, loaded_at) VALUES (?, ?, ?, ?)").run(id, ref, kind, tx.now);
  return { id, ref, kind, loadedAt: tx.now, unloadedAt: null };
}

export function activeSlotFor(db: Db, ref: string): SlotRow | undefined {
  return statement(
    db,
    `SELECT ${SLOT_COLUMNS} FROM slots WHERE ref = ? AND unloaded_at IS NULL ORDER BY loaded_at LIMIT 1`,
  ).get(ref) as SlotRow | undefined;
}

export function getSlot(db: Db, id: string): SlotRow | undefined {
  return statement(db, `SELECT ${SLOT_COLUMNS} FROM slots WHERE id = ?`).get(id) as SlotRow | undefined;
}

export function unloadSlot(tx: Tx, id: string): void {
  statement(tx.db, "UPDATE slots SET unloaded_at = ? WHERE id = ? AND unloaded_at IS NULL").run(tx.now, id);
}

export function unloadSlotsFor(tx: Tx, ref: string): number {
  return statement(tx.db, "UPDATE slots SET unloaded_at = ? WHERE ref = ? AND unloaded_at IS NULL").run(tx.now, ref)
    .changes;
}
