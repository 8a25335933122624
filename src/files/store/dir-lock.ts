// A mkdir lock for one directory (`<dir>/.lock`, the same protocol the anchor tool uses on the same store):
// acquire with a bounded wait, release, and take over a lock older than `staleMs` — renamed aside first, so one wins.

import { mkdirSync, renameSync, rmSync, rmdirSync, statSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { conflict } from "../../domain/errors.js";
import { ensurePrivateDir, PRIVATE_DIR_MODE } from "../private.js";

export interface DirLockOptions {
  timeoutMs?: number;
  pollMs?: number;
  /** A lock this old is abandoned: holders keep it for milliseconds (one claim and one ledger command). */
  staleMs?: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);

function takeOverIfStale(lock: string, staleMs: number): void {
  let age: number;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return; // released meanwhile
  }
  if (age < staleMs) return;
  const aside = `${lock}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // someone else took it over first
  }
  rmSync(aside, { recursive: true, force: true });
}

/** Runs `fn` while holding `<dir>/.lock`; throws a conflict naming the lock when it cannot be had in time. */
export function withDirLock<T>(dir: string, fn: () => T, options: DirLockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const pollMs = options.pollMs ?? 20;
  const staleMs = options.staleMs ?? 30_000;
  const lock = join(dir, ".lock");
  ensurePrivateDir(dir);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lock, PRIVATE_DIR_MODE);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        ensurePrivateDir(dir); // the directory was removed by a delete; recreate and retry
        continue;
      }
      if (code !== "EEXIST") throw error;
    }
    takeOverIfStale(lock, staleMs);
    if (Date.now() > deadline) {
      throw conflict(
        "store-locked",
        `${lock} is held by another process`,
        "retry in a moment; remove the directory only if no docket process is running",
      );
    }
    sleepSync(pollMs);
  }
  try {
    return fn();
  } finally {
    try {
      rmdirSync(lock);
    } catch {
      rmSync(lock, { recursive: true, force: true }); // another tool left files in it; the lock is ours to remove
    }
  }
}
