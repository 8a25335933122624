// The DeliverableStore on disk: `deliverables/<safe-id>/v<N>.json`, claimed under a per-deliverable lock, never replaced.
// Scans are untrusted input (docs/decisions/deliverable-store.md): unsafe names are skipped, and a symlink is listed as
// unreadable, never followed.

import { storedRef } from "../../domain/deliverables/refs.js";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { conflict, internalError, notFound, refusal } from "../../domain/errors.js";
import { isSafeStoredId, type StoredDeliverable } from "../../domain/store/stored-deliverable.js";
import { classifyStoredRecord, type StoredClassification } from "../../domain/store/stored-upgrade.js";
import { claimFile } from "../atomic.js";
import { assertRealDirBelow, entryKind, linkBelow, readNoFollow } from "../no-follow.js";
import { withDirLock, type DirLockOptions } from "./dir-lock.js";
import type { HomeLayout } from "../home.js";

const VERSION_FILE = /^v([1-9][0-9]{0,9})\.json$/;

export interface StoredFile {
  id: string;
  version: number;
  path: string;
  classification: StoredClassification;
  /** The sha256 of the exact bytes classified (absent when the file could not be read): what the ledger pins. */
  sha256?: string;
}

export type StoredVersionRead = { state: "absent"; path: string } | ({ state: "present" } & StoredFile);

export function storeDir(home: HomeLayout, id: string): string {
  if (!isSafeStoredId(id))
    throw internalError(
      "unsafe-stored-id",
      `refusing to build a path from stored deliverable id ${JSON.stringify(id)}`,
    );
  return join(home.deliverables, id);
}

export function storedVersionPath(home: HomeLayout, id: string, version: number): string {
  if (!Number.isInteger(version) || version < 1)
    throw internalError("bad-stored-version", `refusing to build a path for version ${version}`);
  return join(storeDir(home, id), `v${version}.json`);
}

const LINK_DETAIL =
  "a symbolic link; Docket never follows links in the store (move the real file or directory into the store, or remove the link)";
const sha256Of = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

function classifyFile(
  path: string,
  id: string,
  version: number,
): { classification: StoredClassification; sha256?: string } {
  const read = readNoFollow(path);
  if (read.ok === "absent")
    return {
      classification: { status: "unsupported", reason: "corrupt", detail: "the file vanished while it was read" },
    };
  if (read.ok === false) {
    if (read.kind === "symlink")
      return { classification: { status: "unsupported", reason: "symlink", detail: LINK_DETAIL } };
    return {
      classification: {
        status: "unsupported",
        reason: "corrupt",
        detail: read.kind === "not-a-file" ? "the name is taken by something that is not a regular file" : read.reason,
      },
    };
  }
  const text = read.bytes.toString("utf8");
  const sha256 = sha256Of(read.bytes);
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); // an editor's BOM is not damage
  } catch {
    return {
      classification: { status: "unsupported", reason: "corrupt", detail: "the file is not valid JSON" },
      sha256,
    };
  }
  return { classification: classifyStoredRecord(value, { id, version }), sha256 };
}

/** A link (or non-directory) at or above an id directory, as the one unreadable "version" that stands for it. */
function linkedIdFile(home: HomeLayout, id: string): StoredFile | undefined {
  const bad = linkBelow(home.root, storeDir(home, id));
  if (!bad) return undefined;
  const detail = bad.kind === "symlink" ? `${bad.path} is ${LINK_DETAIL}` : `${bad.path} is not a directory`;
  return {
    id,
    version: 1,
    path: bad.path,
    classification: { status: "unsupported", reason: bad.kind === "symlink" ? "symlink" : "corrupt", detail },
  };
}

/** Reads one version as untrusted input. A symlink, or anything but a regular file, in a version's place is unsupported. */
export function readStoredVersion(home: HomeLayout, id: string, version: number): StoredVersionRead {
  const path = storedVersionPath(home, id, version);
  const linked = linkedIdFile(home, id);
  if (linked) return { state: "present", ...linked, version };
  let kind;
  try {
    kind = entryKind(path);
  } catch (error) {
    throw internalError("store-read-failed", `cannot inspect ${path}: ${(error as Error).message}`, error);
  }
  if (kind === "absent") return { state: "absent", path };
  const read: { classification: StoredClassification; sha256?: string } =
    kind === "file"
      ? classifyFile(path, id, version)
      : kind === "symlink"
        ? { classification: { status: "unsupported", reason: "symlink", detail: LINK_DETAIL } }
        : {
            classification: {
              status: "unsupported",
              reason: "corrupt",
              detail: "the name is taken by something that is not a regular file",
            },
          };
  return { state: "present", id, version, path, ...read };
}

export interface SaveStoredResult {
  idempotent: boolean;
  path: string;
  record: StoredDeliverable;
  /** The sha256 of the version file's bytes (the ones just claimed, or the existing identical record's). */
  sha256: string;
}

/** Runs `fn` holding the per-deliverable lock `deliverables/<id>/.lock` (the store's one writer at a time per id). */
export function withStoredIdLock<T>(home: HomeLayout, id: string, fn: () => T, lock: DirLockOptions = {}): T {
  const made = [home.deliverables, storeDir(home, id)].filter((d) => entryKind(d) === "absent");
  try {
    assertRealDirBelow(home.root, storeDir(home, id));
    return withDirLock(storeDir(home, id), fn, lock);
  } catch (error) {
    // A save that failed (a full disk) leaves no directory it made: a refused call changes nothing.
    for (const dir of made.reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        // not empty (another save meanwhile) or already gone: leave it
      }
    }
    throw error;
  }
}

/**
 * Claims `record` as `v<version>.json`; the caller holds the per-deliverable lock. An existing version is never
 * replaced: when `isSame(existing)` it is returned as an idempotent save, otherwise the save is refused naming the file.
 */
export function claimStoredVersion(
  home: HomeLayout,
  record: StoredDeliverable,
  isSame: (existing: StoredDeliverable) => boolean,
): SaveStoredResult {
  const before = readStoredVersion(home, record.id, record.version);
  if (before.state === "present") return settleExisting(before, record, isSame);
  const bytes = `${JSON.stringify(record, null, 2)}\n`;
  if (claimFile(before.path, bytes)) return { idempotent: false, path: before.path, record, sha256: sha256Of(bytes) };
  // Taken between our look and our claim by a writer that does not take the lock: judge what it wrote.
  const after = readStoredVersion(home, record.id, record.version);
  if (after.state === "absent")
    throw conflict(
      "store-claim-lost",
      `${after.path} was claimed and removed while saving ${record.ref}; retry the save`,
    );
  return settleExisting(after, record, isSame);
}

/** Lock + claim in one call (for callers that need nothing else done under the lock). */
export function saveStoredVersion(
  home: HomeLayout,
  record: StoredDeliverable,
  isSame: (existing: StoredDeliverable) => boolean,
  lock: DirLockOptions = {},
): SaveStoredResult {
  return withStoredIdLock(home, record.id, () => claimStoredVersion(home, record, isSame), lock);
}

function settleExisting(
  existing: StoredFile,
  wanted: StoredDeliverable,
  isSame: (r: StoredDeliverable) => boolean,
): SaveStoredResult {
  const c = existing.classification;
  if (c.status === "ok") {
    if (isSame(c.record)) return { idempotent: true, path: existing.path, record: c.record, sha256: existing.sha256! };
    throw conflict(
      "store-version-exists",
      `${wanted.ref} already exists in ${existing.path} with other content; a claimed version is never overwritten`,
      "delete that version first if you really mean to replace it",
    );
  }
  if (c.reason === "corrupt" || c.reason === "invalid" || c.reason === "symlink") {
    throw conflict(
      "store-version-corrupt",
      `${wanted.ref} is claimed by an invalid or corrupt file ${existing.path} (${c.detail}); it is never overwritten`,
      "inspect or move that file aside, then save again",
    );
  }
  throw conflict(
    "store-version-unsupported",
    `${wanted.ref} is claimed by ${existing.path}, a record this build cannot load (${c.reason}: ${c.detail}); it is never overwritten`,
    "upgrade docket to read it",
  );
}

/** Removes exactly one regular version file under the lock; never a link, never through one. The directory goes too when empty. */
export function deleteStoredVersion(home: HomeLayout, id: string, version: number): { path: string } {
  const dir = storeDir(home, id);
  const path = storedVersionPath(home, id, version);
  const linked = linkedIdFile(home, id);
  if (linked)
    throw refusal(
      "store-symlink",
      `${storedRef(id, version)} is not deleted: ${linked.classification.status === "unsupported" ? linked.classification.detail : ""}`,
      "remove the link yourself if it should go",
    );
  if (entryKind(dir) === "absent")
    throw notFound("stored-not-found", `${storedRef(id, version)} has no file at ${path}`);
  try {
    withDirLock(dir, () => {
      const kind = entryKind(path);
      if (kind === "absent") throw notFound("stored-not-found", `${storedRef(id, version)} has no file at ${path}`);
      if (kind === "symlink")
        throw refusal(
          "store-symlink",
          `${storedRef(id, version)} is not deleted: ${path} is ${LINK_DETAIL}`,
          "remove the link yourself if it should go",
        );
      if (kind !== "file")
        throw refusal(
          "store-not-a-file",
          `${storedRef(id, version)} is not deleted: ${path} is not a regular file`,
          "inspect it and remove it yourself",
        );
      unlinkSync(path);
    });
  } finally {
    try {
      rmdirSync(dir);
    } catch {
      // Best effort: a non-empty directory (other versions, a concurrent saver's lock) simply stays.
    }
  }
  return { path };
}

function safeEntries(dir: string): { name: string; dir: boolean; file: boolean; link: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.name.startsWith("."))
      .map((e) => ({ name: e.name, dir: e.isDirectory(), file: e.isFile(), link: e.isSymbolicLink() }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw internalError("store-scan-failed", `cannot list ${dir}: ${(error as Error).message}`, error);
  }
}

/** The version files of one stored id, classified; a linked id directory or version file is listed as unreadable. */
export function scanStoredId(home: HomeLayout, id: string): StoredFile[] {
  const linked = linkedIdFile(home, id);
  if (linked) return [linked];
  const dir = storeDir(home, id);
  const out: StoredFile[] = [];
  for (const e of safeEntries(dir)) {
    const m = VERSION_FILE.exec(e.name);
    if (!m || !(e.file || e.link)) continue;
    const version = Number(m[1]);
    const path = join(dir, e.name);
    out.push({
      id,
      version,
      path,
      ...(e.link
        ? { classification: { status: "unsupported", reason: "symlink", detail: LINK_DETAIL } as StoredClassification }
        : classifyFile(path, id, version)),
    });
  }
  return out.sort((a, b) => a.version - b.version);
}

/** Every safe id in the store: real directories, and links in their place (listed as unreadable, never entered). */
export function scanStoredIds(home: HomeLayout): string[] {
  if (linkBelow(home.root, home.deliverables)) return []; // a linked store is never entered; `docket doctor` names it
  return safeEntries(home.deliverables)
    .filter((e) => (e.dir || e.link) && isSafeStoredId(e.name))
    .map((e) => e.name);
}

/** Every version file of the store, classified. This is the slow path: the ledger index exists so lists avoid it. */
export function scanStore(home: HomeLayout): StoredFile[] {
  return scanStoredIds(home).flatMap((id) => scanStoredId(home, id));
}

/** A cheap change stamp of the store's top directory (its mtime in ns); "absent" when there is no store yet. */
export function storeStamp(home: HomeLayout): string {
  try {
    return String(lstatSync(home.deliverables, { bigint: true }).mtimeNs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "absent";
    throw internalError("store-stat-failed", `cannot stat ${home.deliverables}: ${(error as Error).message}`, error);
  }
}

/** True while a writer holds (or a crashed writer left) the per-deliverable lock of `id`. */
export function isStoredIdLocked(home: HomeLayout, id: string): boolean {
  if (linkBelow(home.root, storeDir(home, id))) return false;
  return entryKind(join(storeDir(home, id), ".lock")) !== "absent";
}

/** The mtime stamp of one id directory (new versions inside an existing id change it, not the top one). */
export function storedIdStamp(home: HomeLayout, id: string): string {
  try {
    return String(lstatSync(storeDir(home, id), { bigint: true }).mtimeNs);
  } catch {
    return "absent"; // removed meanwhile: the caller drops its rows
  }
}
