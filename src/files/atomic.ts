// Atomic file writes: replaceable projections (temp, fsync, rename) and immutable claims (temp, fsync, link).
// A claim never replaces anything: EEXIST means the name is already taken, whatever its content
// (docs/decisions/command-pattern.md). Every file written here is private (0600) and its directory 0700 when created
// (docs/decisions/authority.md).

import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { createPrivateFile, ensurePrivateDir } from "./private.js";

/** Temp files are named `.<target>.<pid>.<hex>.tmp`, so `docket doctor` can tell a dead writer's leftovers. */
export const TEMP_FILE = /^\.(.+)\.([1-9][0-9]*)\.([0-9a-f]{12})\.tmp$/;

function writeTemp(target: string, data: string | Uint8Array, { mkdir = true, durable = true } = {}): string {
  const dir = dirname(target);
  if (mkdir) ensurePrivateDir(dir);
  const temp = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = createPrivateFile(temp);
  try {
    const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (durable) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true }); // a full disk or an I/O error leaves no half-written temp behind
    throw error;
  }
  closeSync(fd);
  return temp;
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the file itself is already durable.
  }
}

/**
 * Replaces `target` atomically; readers see the old or the new bytes, never a mix. With `mkdir: false` a missing
 * directory is an ENOENT error instead of being made (a projection must not bring a removed directory back).
 * `durable: false` skips both fsyncs: only for a projection the ledger holds and the next write replaces (status.json
 * after every call of a worker, heartbeats included), where a power cut can cost its last update and nothing else.
 */
export function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: { mkdir?: boolean; durable?: boolean } = {},
): void {
  const durable = options.durable ?? true;
  const temp = writeTemp(target, data, { mkdir: options.mkdir ?? true, durable });
  try {
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (durable) fsyncDir(dirname(target));
}

/** Claims `target` with `data` unless the name exists. Returns false (and writes nothing) when it was taken. */
export function claimFile(target: string, data: string | Uint8Array): boolean {
  const temp = writeTemp(target, data);
  try {
    linkSync(temp, target);
    fsyncDir(dirname(target));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}
