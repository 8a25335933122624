// Worker deliverable sidecars on disk: `fleet/<id>/deliverables/v<N>.json`, claimed once and never overwritten.
// Listings and contents are untrusted input: every read is validated, and no symlink is followed
// (docs/decisions/immutable-deliverables.md, docs/decisions/authority.md).

import { closeSync, constants, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import type { WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { validateDeliverable } from "../../domain/deliverables/validate.js";
import { claimFile } from "../atomic.js";
import { readFrozenJson, type FrozenRead } from "../frozen-json.js";
import type { HomeLayout } from "../home.js";
import { assertRealDirBelow, MAX_HOME_FILE_BYTES } from "../no-follow.js";
import { refusal } from "../../domain/errors.js";

/** A sidecar as read: on success, the sha256 of the exact bytes parsed (what an approval binds to). */
export type SidecarRead = FrozenRead<WorkerDeliverable>;

const VERSION_FILE = /^v([1-9][0-9]{0,9})\.json$/;

export function deliverablesDir(home: HomeLayout, workerId: string): string {
  return join(home.workerDir(workerId), "deliverables");
}

export function deliverablePath(home: HomeLayout, workerId: string, version: number): string {
  if (!Number.isInteger(version) || version < 1)
    throw new RangeError(`deliverable version must be a positive integer; got ${version}`);
  return join(deliverablesDir(home, workerId), `v${version}.json`);
}

/** Claimed version numbers, ascending — including files that are corrupt: their numbers stay taken. */
export function listDeliverableVersions(home: HomeLayout, workerId: string): number[] {
  assertRealDirBelow(home.root, deliverablesDir(home, workerId));
  let names: string[];
  try {
    names = readdirSync(deliverablesDir(home, workerId));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const versions: number[] = [];
  for (const name of names) {
    const m = VERSION_FILE.exec(name);
    if (m) versions.push(Number(m[1]));
  }
  return versions.sort((a, b) => a - b);
}

/** Reads and validates one sidecar; a missing, unparsable or inconsistent file is `ok: false` with a reason. */
export function readDeliverable(home: HomeLayout, workerId: string, version: number): SidecarRead {
  return readFrozenJson(home.root, deliverablePath(home, workerId, version), (value) =>
    validateDeliverable(value, { workerId, version }),
  );
}

/** Claims `v<version>.json` with `d` (temp, fsync, link). False when the number is already taken. */
export function claimDeliverable(home: HomeLayout, workerId: string, version: number, d: WorkerDeliverable): boolean {
  assertRealDirBelow(home.root, deliverablesDir(home, workerId));
  const bytes = formatSidecar(d);
  // A version nobody could read back is refused before it is frozen (the reader's cap, files/no-follow.ts).
  if (Buffer.byteLength(bytes) > MAX_HOME_FILE_BYTES) {
    throw refusal(
      "deliverable-too-large",
      `${workerId}'s version ${version} would be ${Buffer.byteLength(bytes)} bytes, over the ${MAX_HOME_FILE_BYTES} a frozen version may hold; nothing was frozen`,
      "leave generated or binary bulk out of the change set (delete it or add it to .gitignore), then call docket_done again",
    );
  }
  return claimFile(deliverablePath(home, workerId, version), bytes);
}

/** The sidecar bytes: identity fields first, so a tool-call id can be found by reading the head of the file. */
export function formatSidecar(d: WorkerDeliverable): string {
  const { schemaVersion, id, version, ref, createdAt, toolCallId, ...rest } = d;
  return `${JSON.stringify({ schemaVersion, id, version, ref, createdAt, toolCallId, ...rest }, null, 2)}\n`;
}

/**
 * The claimed version whose sidecar carries `toolCallId`, if any (newest first). Reads only the head of each
 * file; a candidate is then fully validated, so a corrupt file never matches.
 */
export function findDeliverableByToolCall(
  home: HomeLayout,
  workerId: string,
  toolCallId: string,
): SidecarRead | undefined {
  const needle = `"toolCallId": ${JSON.stringify(toolCallId)}`;
  for (const version of listDeliverableVersions(home, workerId).reverse()) {
    const path = deliverablePath(home, workerId, version);
    if (!readHead(path, 4096).includes(needle)) continue;
    const read = readDeliverable(home, workerId, version);
    if (read.ok && read.deliverable.toolCallId === toolCallId) return read;
  }
  return undefined;
}

function readHead(path: string, bytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return ""; // unreadable or vanished: it cannot be matched, and its number stays claimed by the listing
  }
  try {
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString("utf8");
  } catch {
    return ""; // not a readable regular file (a FIFO or device in its place): it cannot match
  } finally {
    closeSync(fd);
  }
}
