// Keeps the ledger's index of the DeliverableStore in step with the files, cheaply: one stat when nothing changed.
// The files are authoritative; the index is refreshed per changed directory, or rebuilt in full by `--reindex`
// (docs/decisions/deliverable-store.md).

import { storedRef } from "../../domain/deliverables/refs.js";
import type { StoredFile } from "../../files/store/deliverable-store.js";
import {
  isStoredIdLocked,
  scanStore,
  scanStoredId,
  scanStoredIds,
  storedIdStamp,
  storeStamp,
} from "../../files/store/deliverable-store.js";
import { listLegacyLinks } from "../../files/store/legacy-bundles.js";
import {
  dirtyIds,
  indexRowsForId,
  listIndexRows,
  pinStored,
  readStamp,
  readStamps,
  replaceIdRows,
  replaceIndex,
  ROOT_STAMP,
  rootStamp,
  setStamp,
  DIRTY,
  type IndexRow,
} from "../../ledger/store/store-index.js";
import type { Tx } from "../../ledger/core/runner.js";
import type { EngineContext } from "../context.js";

export function indexRowOf(file: StoredFile): IndexRow {
  const c = file.classification;
  if (c.status === "ok") {
    const r = c.record;
    return {
      id: r.id,
      version: r.version,
      ref: r.ref,
      outcome: r.outcome,
      summary: r.summary,
      savedAt: r.savedAt,
      sourceKind: r.source.kind,
      path: file.path,
      status: "ok",
      reason: null,
      detail: c.upgradedFrom ? `upgraded from schemaVersion ${c.upgradedFrom}` : null,
    };
  }
  return {
    id: file.id,
    version: file.version,
    ref: storedRef(file.id, file.version),
    outcome: null,
    summary: null,
    savedAt: null,
    sourceKind: null,
    path: file.path,
    status: "unsupported",
    reason: c.reason,
    detail: c.detail,
  };
}

/**
 * Pins every loadable file just read whose version has no pin yet (a stored record's bytes are pinned:
 * docs/decisions/deliverable-store.md).
 */
function pinFiles(tx: Tx, files: readonly StoredFile[]): void {
  for (const f of files) if (f.classification.status === "ok" && f.sha256) pinStored(tx, f.id, f.version, f.sha256);
}

export interface RefreshResult {
  /** Id directories whose files were read again. */
  rescanned: number;
  /** False when the top stamp matched and nothing was dirty: the index was used as is. */
  walked: boolean;
}

/** An id directory's stamp, or DIRTY while a save is in flight there (so a crash mid-save is looked at again). */
function idStamp(ctx: EngineContext, id: string): string {
  const busy = isStoredIdLocked(ctx.home, id);
  const stamp = storedIdStamp(ctx.home, id);
  return busy && stamp !== "absent" ? DIRTY : stamp;
}

/**
 * Brings the index up to date. Unchanged store: one stat plus one query. Changed top directory: one stat per id
 * directory, and only directories whose stamp moved (or that a crashed save marked dirty) are read again.
 */
export function refreshStoreIndex(ctx: EngineContext): RefreshResult {
  if (ctx.readOnly) return { rescanned: 0, walked: false }; // a read-only home's index cannot move; lists read the files
  const top = storeStamp(ctx.home);
  const dirty = dirtyIds(ctx.db);
  if (top === rootStamp(ctx.db) && dirty.length === 0) return { rescanned: 0, walked: false };
  // A home that never had a store, and still has none, is already mirrored: a lookup in it writes nothing.
  if (top === "absent" && rootStamp(ctx.db) === undefined && dirty.length === 0) return { rescanned: 0, walked: false };
  const known = readStamps(ctx.db);
  known.delete(ROOT_STAMP);
  const changes: { id: string; files: StoredFile[]; stamp: string }[] = [];
  const present = top === "absent" ? [] : scanStoredIds(ctx.home);
  const seen = new Set<string>();
  for (const id of top === rootStamp(ctx.db) ? dirty : present) {
    seen.add(id);
    const stamp = idStamp(ctx, id);
    if (known.get(id) === stamp && stamp !== DIRTY) continue;
    // The stamp is read before the files, so a write racing this scan leaves a stamp that differs next time.
    changes.push({ id, stamp, files: stamp === "absent" ? [] : scanStoredId(ctx.home, id) });
  }
  if (top !== rootStamp(ctx.db)) {
    for (const id of known.keys()) if (!seen.has(id)) changes.push({ id, stamp: "absent", files: [] });
  }
  ctx.commands.run("store.refresh-index", null, (tx) => {
    for (const c of changes) {
      replaceIdRows(tx, c.id, c.files.map(indexRowOf), c.stamp);
      pinFiles(tx, c.files);
    }
    setStamp(tx, ROOT_STAMP, top);
  });
  return { rescanned: changes.length, walked: true };
}

export interface ReindexResult {
  records: number;
  unsupported: number;
}

/** Throws the index away and rebuilds it from the files (`docket deliverables --reindex`). */
export function reindexStore(ctx: EngineContext): ReindexResult {
  const top = storeStamp(ctx.home);
  const stamps = new Map<string, string>([[ROOT_STAMP, top]]);
  const files: StoredFile[] = [];
  for (const id of top === "absent" ? [] : scanStoredIds(ctx.home)) {
    stamps.set(id, idStamp(ctx, id));
    files.push(...scanStoredId(ctx.home, id));
  }
  const rows = files.map(indexRowOf);
  // The index is thrown away; the pins are not (they are what the files must still match).
  ctx.commands.run("store.reindex", null, (tx) => {
    replaceIndex(tx, rows, stamps);
    pinFiles(tx, files);
  });
  return {
    records: rows.filter((r) => r.status === "ok").length,
    unsupported: rows.filter((r) => r.status === "unsupported").length,
  };
}

/**
 * Re-reads one id directory into the index (after a save or delete, or when a ref is not indexed yet). A directory
 * whose stamp is the one indexed is already mirrored: nothing is written, so looking up a bad ref changes nothing.
 */
export function rescanStoredId(ctx: EngineContext, id: string): IndexRow[] {
  const stamp = idStamp(ctx, id);
  const known = readStamp(ctx.db, id);
  if (stamp !== DIRTY && (known === stamp || (known === undefined && stamp === "absent")))
    return indexRowsForId(ctx.db, id);
  const files = stamp === "absent" ? [] : scanStoredId(ctx.home, id);
  const rows = files.map(indexRowOf);
  if (ctx.readOnly) return rows;
  ctx.commands.run("store.rescan-id", null, (tx) => {
    replaceIdRows(tx, id, rows, stamp);
    pinFiles(tx, files);
  });
  return rows;
}

export interface StoredListing {
  deliverables: { ref: string; id: string; version: number; outcome: string; summary: string; savedAt: string }[];
  unsupported: { path: string; reason: string; detail: string; ref: string }[];
}

/** The store's contents from the index (refreshed first), newest first; unreadable records and links are listed, not dropped. */
export function listStoredDeliverables(ctx: EngineContext): StoredListing {
  refreshStoreIndex(ctx);
  const deliverables: StoredListing["deliverables"] = [];
  const unsupported: StoredListing["unsupported"] = [];
  for (const r of ctx.readOnly ? scannedRows(ctx) : listIndexRows(ctx.db)) {
    if (r.status === "ok") {
      deliverables.push({
        ref: r.ref,
        id: r.id,
        version: r.version,
        outcome: r.outcome ?? "",
        summary: r.summary ?? "",
        savedAt: r.savedAt ?? "",
      });
    } else {
      unsupported.push({ path: r.path, reason: r.reason ?? "invalid", detail: r.detail ?? "", ref: r.ref });
    }
  }
  for (const l of listLegacyLinks(ctx.home)) unsupported.push({ ...l, ref: "checkpoint:unreadable" });
  return { deliverables, unsupported };
}

/** The index's rows as a scan of the files gives them, in listing order (for a read-only home, whose index cannot be refreshed). */
function scannedRows(ctx: EngineContext): IndexRow[] {
  const key = (r: IndexRow) => `${r.savedAt ?? ""}\u0000${r.id}\u0000${String(r.version).padStart(10, "0")}`;
  return scanStore(ctx.home)
    .map(indexRowOf)
    .sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));
}
