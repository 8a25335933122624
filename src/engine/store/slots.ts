// Load, preview, unload and delete for stored records and legacy bundles: d<N> slots are ledger rows, never model context.
// Loading and previewing only inspect; deleting removes exactly one version (or one legacy bundle) after confirmation.

import { assertExactRef } from "../../domain/ids.js";
import { notFound } from "../../domain/errors.js";
import { confirmationRefused, resolveConfirmation } from "../../domain/review/confirmation.js";
import type { StoredDeliverable } from "../../domain/store/stored-deliverable.js";
import { deleteStoredVersion } from "../../files/store/deliverable-store.js";
import { deleteLegacyBundle, readLegacyBundle, type LegacyBundle } from "../../files/store/legacy-bundles.js";
import {
  activeSlotFor,
  deleteIndexRow,
  deletePin,
  getSlot,
  insertSlot,
  setStamp,
  unloadSlot,
  unloadSlotsFor,
  DIRTY,
  type SlotRow,
} from "../../ledger/store/store-index.js";
import type { EngineContext } from "../context.js";
import { readStoredTarget, resolveStoreTarget, type StoreTarget } from "./target.js";
import { assertHuman } from "../authority.js";

export interface LoadResult {
  slot: string;
  ref: string;
  /** False when the ref was already mounted and its existing slot is returned. */
  created: boolean;
}

/** Mounts a stored record (or legacy bundle) as a `d<N>` slot; loading the same ref again returns its slot. */
export function loadStored(ctx: EngineContext, ref: string): LoadResult {
  assertHuman(ctx, "load");
  const target = resolveStoreTarget(ctx, ref);
  if (target.kind === "stored")
    readStoredTarget(ctx, target); // refuses what this build cannot load
  else if (!readLegacyBundle(ctx.home, target.id)) throw notFound("legacy-not-found", `no legacy bundle ${target.ref}`);
  return ctx.commands.run("store.load", { ref: target.ref }, (tx) => {
    const existing = activeSlotFor(tx.db, target.ref);
    if (existing) return { slot: existing.id, ref: target.ref, created: false };
    const slot = insertSlot(tx, target.ref, target.kind === "stored" ? "stored" : "legacy");
    return { slot: slot.id, ref: target.ref, created: true };
  }).result;
}

export interface PreviewResult {
  ref: string;
  kind: "stored" | "legacy";
  slot: string | null;
  path: string;
  body: string;
  /** Present for stored records. */
  record?: StoredDeliverable;
  /** Present for legacy bundles. */
  bundle?: LegacyBundle;
  artifacts?: unknown[];
}

/** The full record or bundle for reading (zero model context: the caller decides where it is shown). */
export function previewStored(ctx: EngineContext, ref: string): PreviewResult {
  const target = resolveStoreTarget(ctx, ref);
  const slot = activeSlotFor(ctx.db, target.ref)?.id ?? null;
  if (target.kind === "stored") {
    const { record, path } = readStoredTarget(ctx, target);
    return { ref: target.ref, kind: "stored", slot, path, body: record.body, record };
  }
  const read = readLegacyBundle(ctx.home, target.id);
  if (!read) throw notFound("legacy-not-found", `no legacy bundle ${target.ref}`);
  return {
    ref: target.ref,
    kind: "legacy",
    slot,
    path: read.bundle.path,
    body: read.body,
    bundle: read.bundle,
    artifacts: read.artifacts,
  };
}

export interface UnloadResult {
  slot: string;
  ref: string;
  unloaded: boolean;
}

/** Unmounts a slot (`d<N>`, or the active slot of a ref). Unloading an already unloaded slot says so and changes nothing. */
export function unloadStored(ctx: EngineContext, slotOrRef: string): UnloadResult {
  assertHuman(ctx, "unload");
  assertExactRef(slotOrRef, "a slot or ref");
  const name = slotOrRef;
  let slot: SlotRow | undefined = /^d[1-9][0-9]{0,9}$/.test(name) ? getSlot(ctx.db, name) : undefined;
  if (!slot && !/^d[1-9][0-9]{0,9}$/.test(name)) slot = activeSlotFor(ctx.db, resolveStoreTarget(ctx, name).ref);
  if (!slot) throw notFound("slot-not-found", `no slot ${name}`, "slots are d<N>; `docket load <ref>` creates one");
  const found = slot;
  return ctx.commands.run("store.unload", { slot: found.id }, (tx) => {
    const now = getSlot(tx.db, found.id)!;
    if (now.unloadedAt !== null) return { slot: now.id, ref: now.ref, unloaded: false };
    unloadSlot(tx, now.id);
    return { slot: now.id, ref: now.ref, unloaded: true };
  }).result;
}

export interface DeleteTarget {
  ref: string;
  kind: "stored" | "legacy";
  path: string;
  summary: string;
}

/** What `delete <ref>` would remove, for the confirmation prompt. */
export function describeDeleteTarget(ctx: EngineContext, ref: string): DeleteTarget {
  assertHuman(ctx, "deliverable delete");
  const target = resolveStoreTarget(ctx, ref);
  if (target.kind === "stored")
    return {
      ref: target.ref,
      kind: "stored",
      path: target.row.path,
      summary: target.row.summary ?? `(unsupported: ${target.row.reason})`,
    };
  const read = readLegacyBundle(ctx.home, target.id);
  if (!read) throw notFound("legacy-not-found", `no legacy bundle ${target.ref}`);
  return { ref: target.ref, kind: "legacy", path: read.bundle.path, summary: read.bundle.title };
}

export interface DeleteResult {
  ref: string;
  deleted: string[];
  unloadedSlots: number;
}

/** Deletes one version (or one legacy bundle's files). `confirmed` must be true: the surface asked, or --yes was given. */
export function deleteStored(ctx: EngineContext, ref: string, options: { confirmed: boolean }): DeleteResult {
  assertHuman(ctx, "deliverable delete");
  const target: StoreTarget = resolveStoreTarget(ctx, ref);
  if (resolveConfirmation("deliverable delete", { yes: options.confirmed, interactive: false }) === "refuse")
    throw confirmationRefused("deliverable delete", target.ref);
  if (target.kind === "legacy") {
    const { paths } = deleteLegacyBundle(ctx.home, target.id);
    const unloaded = ctx.commands.run("store.delete-legacy", { ref: target.ref }, (tx) =>
      unloadSlotsFor(tx, target.ref),
    ).result;
    return { ref: target.ref, deleted: paths, unloadedSlots: unloaded };
  }
  const { path } = deleteStoredVersion(ctx.home, target.id, target.version);
  const unloaded = ctx.commands.run("store.delete", { ref: target.ref }, (tx) => {
    deleteIndexRow(tx, target.id, target.version);
    deletePin(tx, target.id, target.version);
    setStamp(tx, target.id, DIRTY); // the directory changed (or went away): the next list re-reads just this id
    return unloadSlotsFor(tx, target.ref);
  }).result;
  return { ref: target.ref, deleted: [path], unloadedSlots: unloaded };
}
