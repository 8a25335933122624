// Resolving what a human names (`deliverable:<id>:<v>`, an id or prefix, `last`, a `d<N>` slot, `checkpoint:<id>`).
// Lookups go through the ledger index, never a scan of the store; an unindexed exact ref re-reads only its own directory.

import { parseStoreName, storedIdPrefixOf, type StoreName } from "../../domain/deliverables/refs.js";
import { notFound, refusal, validationError } from "../../domain/errors.js";
import { isSafeName } from "../../domain/ids.js";
import { isSafeStoredId, type StoredDeliverable } from "../../domain/store/stored-deliverable.js";
import { readStoredVersion } from "../../files/store/deliverable-store.js";
import { legacyRef, listLegacyBundles, parseLegacyRef, readLegacyBundle } from "../../files/store/legacy-bundles.js";
import { verifyContent } from "../../domain/review/content-binding.js";
import {
  getIndexRow,
  getPin,
  getSlot,
  indexRowsByPrefix,
  indexRowsForId,
  newestOkRow,
  type IndexRow,
} from "../../ledger/store/store-index.js";
import type { EngineContext } from "../context.js";
import { refreshStoreIndex, rescanStoredId } from "./catalog.js";

export type StoreTarget =
  | { kind: "stored"; ref: string; id: string; version: number; row: IndexRow }
  | { kind: "legacy"; ref: string; id: string };

const storedTarget = (row: IndexRow): StoreTarget => ({
  kind: "stored",
  ref: row.ref,
  id: row.id,
  version: row.version,
  row,
});

function newestVersion(rows: IndexRow[]): IndexRow | undefined {
  const ok = rows.filter((r) => r.status === "ok");
  return (ok.length > 0 ? ok : rows).reduce<IndexRow | undefined>(
    (best, r) => (!best || r.version > best.version ? r : best),
    undefined,
  );
}

/**
 * What `given` names in the store or among legacy bundles (its text, or the store name a command already parsed);
 * throws a one-line not-found or ambiguity error.
 */
export function resolveStoreTarget(ctx: EngineContext, given: string | StoreName): StoreTarget {
  const parsed = typeof given === "string" ? parseStoreName(given) : given;
  const name = parsed.text;
  if (name === "")
    throw validationError("empty-ref", "name a stored deliverable: deliverable:<id>:<v>, an id, last, or a d<N> slot");
  refreshStoreIndex(ctx);
  if (parsed.kind === "last") {
    const row = newestOkRow(ctx.db);
    if (row) return storedTarget(row);
    const bundle = listLegacyBundles(ctx.home)[0];
    if (bundle) return { kind: "legacy", ref: bundle.ref, id: bundle.id };
    throw notFound(
      "store-empty",
      "the DeliverableStore is empty",
      "save one with `docket save --from <w>` or `docket save --author <file> --outcome <o>`",
    );
  }
  if (parsed.kind === "slot") {
    const slot = getSlot(ctx.db, name);
    if (!slot || slot.unloadedAt !== null)
      throw notFound(
        "slot-not-loaded",
        `slot ${name} is not loaded`,
        "run `docket deliverables` and `docket load <ref>`",
      );
    return resolveStoreTarget(ctx, slot.ref);
  }
  if (parsed.kind === "exact") {
    const row =
      getIndexRow(ctx.db, parsed.id, parsed.version) ??
      rescanStoredId(ctx, parsed.id).find((r) => r.version === parsed.version);
    if (!row)
      throw notFound(
        "stored-not-found",
        `no stored deliverable ${name}`,
        "run `docket deliverables` to see what exists",
      );
    return storedTarget(row);
  }
  const legacyId = parseLegacyRef(name);
  if (legacyId !== undefined) {
    if (!readLegacyBundle(ctx.home, legacyId))
      throw notFound("legacy-not-found", `no legacy bundle ${name}`, "run `docket deliverables` to see what exists");
    return { kind: "legacy", ref: legacyRef(legacyId), id: legacyId };
  }
  if (isSafeStoredId(name)) {
    const row = newestVersion(indexRowsForId(ctx.db, name));
    if (row) return storedTarget(row);
  }
  const bare = storedIdPrefixOf(name);
  const matches = indexRowsByPrefix(ctx.db, bare, 50);
  const ids = [...new Set(matches.map((r) => r.id))];
  if (ids.length === 1) return storedTarget(newestVersion(matches)!);
  if (ids.length > 1) {
    throw refusal(
      "ambiguous-ref",
      `"${name}" matches ${ids.length} stored deliverables (${ids.slice(0, 4).join(", ")}${ids.length > 4 ? ", …" : ""})`,
      "give more of the id, or the full deliverable:<id>:<v> ref",
    );
  }
  if (isSafeName(name) && readLegacyBundle(ctx.home, name)) return { kind: "legacy", ref: legacyRef(name), id: name };
  throw notFound(
    "stored-not-found",
    `no stored deliverable matches "${name}"`,
    "run `docket deliverables` to see what exists",
  );
}

/**
 * Reads a resolved stored target's record from its file; a record this build cannot load is refused with its reason,
 * and one whose bytes differ from the ledger's pin is refused as `deliverable-tampered` (docs/decisions/authority.md).
 */
export function readStoredTarget(
  ctx: EngineContext,
  target: Extract<StoreTarget, { kind: "stored" }>,
): { record: StoredDeliverable; path: string; sha256: string } {
  const read = readStoredVersion(ctx.home, target.id, target.version);
  if (read.state === "absent") {
    rescanStoredId(ctx, target.id);
    throw notFound(
      "stored-not-found",
      `${target.ref} has no file at ${read.path} any more`,
      "run `docket deliverables`",
    );
  }
  const c = read.classification;
  if (c.status !== "ok") {
    if (target.row.status === "ok") rescanStoredId(ctx, target.id);
    throw refusal(
      "stored-unsupported",
      `${target.ref} cannot be loaded: ${c.reason} (${c.detail}) — ${read.path}`,
      c.reason === "newer-schema" ? "upgrade docket" : "inspect the file",
    );
  }
  verifyContent({
    ref: target.ref,
    file: read.path,
    expected: getPin(ctx.db, target.id, target.version),
    actual: read.sha256!,
  });
  return { record: c.record, path: read.path, sha256: read.sha256! };
}
