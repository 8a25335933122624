// The doctor's check of the ledger's index of the DeliverableStore against the files it mirrors.
// The files are authoritative: a difference is repaired by rebuilding the index from them (--fix, or `deliverables --reindex`).

import { scanStore } from "../../files/store/deliverable-store.js";
import type { HomeLayout } from "../../files/home.js";
import { openReadOnlyRaw } from "../../ledger/core/read-only.js";
import { listIndexRows } from "../../ledger/store/store-index.js";
import { indexRowOf } from "../store/catalog.js";
import { ok, samplePaths, type Finding } from "./findings.js";

const keyOf = (r: { id: string; version: number; status: string; reason: string | null }) =>
  `${r.id}:${r.version}:${r.status}:${r.reason ?? ""}`;

/** Which store versions the index lacks, and which it lists that the files no longer hold (or hold differently). */
export function compareStoreIndex(home: HomeLayout): { missing: string[]; stale: string[] } {
  const db = openReadOnlyRaw(home.ledger);
  let indexed: string[];
  try {
    indexed = listIndexRows(db).map(keyOf);
  } finally {
    db.close();
  }
  const files = scanStore(home).map((f) => keyOf(indexRowOf(f)));
  const inIndex = new Set(indexed);
  const onDisk = new Set(files);
  return { missing: files.filter((k) => !inIndex.has(k)), stale: indexed.filter((k) => !onDisk.has(k)) };
}

/** The finding; `reindex` rebuilds the index (it needs a writable home) and is called only with --fix. */
export function checkStoreIndex(home: HomeLayout, fix: boolean, reindex: () => void): Finding {
  const { missing, stale } = compareStoreIndex(home);
  if (missing.length === 0 && stale.length === 0)
    return ok("store-index", "the DeliverableStore index matches the files");
  if (fix) reindex();
  return {
    check: "store-index",
    severity: "warning",
    fixed: fix || undefined,
    paths: samplePaths([...missing.map((k) => `not indexed: ${k}`), ...stale.map((k) => `stale: ${k}`)]),
    message: `the ledger's index of the DeliverableStore differs from the files (${missing.length} not indexed, ${stale.length} stale); the next listing refreshes changed directories only`,
    fix: "run `docket doctor --fix` or `docket deliverables --reindex` to rebuild it from the files",
  };
}
