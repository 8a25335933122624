// A lock file owned by one live process: claimed with a no-replace link, holding the owner's pid, host and start.
// Waiters poll until a deadline; a lock whose owner died (or that outlived `staleMs`) is renamed aside, so one wins.

import { ensurePrivateDir, PRIVATE_DIR_MODE } from "./private.js";
import { chmodSync, existsSync, linkSync, readFileSync, renameSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { conflict } from "../domain/errors.js";
import { claimFile } from "./atomic.js";

export interface LockFileOptions {
  /** What the lock guards, for the refusal ("the pi model listing"). */
  what: string;
  timeoutMs?: number;
  pollMs?: number;
  /** Held this long, a lock is abandoned even when its pid still runs (the pid may have been reused). */
  staleMs?: number;
}

interface Owner {
  pid: number;
  host: string;
  at: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);

function readOwner(path: string): { raw: string; owner: Owner | undefined } | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch {
    return undefined; // released meanwhile
  }
  try {
    const o: unknown = JSON.parse(raw);
    if (
      typeof o === "object" &&
      o !== null &&
      "pid" in o &&
      "host" in o &&
      "at" in o &&
      typeof o.pid === "number" &&
      typeof o.host === "string" &&
      typeof o.at === "number"
    ) {
      return { raw, owner: { pid: o.pid, host: o.host, at: o.at } };
    }
  } catch {
    // Not ours or torn by a crash of another tool: judged by age below.
  }
  return { raw, owner: undefined };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // it exists, it is just not ours to signal
  }
}

function abandoned(owner: Owner | undefined, nowMs: number, staleMs: number): boolean {
  if (!owner) return true;
  if (nowMs - owner.at > staleMs) return true;
  return owner.host === hostname() && !alive(owner.pid);
}

/** Moves an abandoned lock aside; if it turns out to be a fresh claim made meanwhile, puts it back. */
function takeOver(path: string, judged: string): void {
  const aside = `${path}.abandoned-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else took it over or released it first
  }
  let moved = "";
  try {
    moved = readFileSync(aside, "utf8");
  } catch {
    // unreadable: nothing to put back
  }
  if (moved !== judged) {
    try {
      linkSync(aside, path); // a live owner's claim: restore it unless a newer claim already stands
    } catch {
      // A newer claim holds the name; the one moved aside was taken over in a race we cannot undo.
    }
  }
  rmSync(aside, { force: true });
}

/** Runs `fn` while holding the lock file at `path`; a conflict naming the holder when it cannot be had in time. */
export function withLockFile<T>(path: string, fn: () => T, options: LockFileOptions): T {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollMs = options.pollMs ?? 25;
  const staleMs = options.staleMs ?? 10 * 60_000;
  // Lock files name who holds them (pid, host): private like the rest of the home, whatever the umask.
  ensurePrivateDir(dirname(path));
  chmodSync(dirname(path), PRIVATE_DIR_MODE); // a folder made 0755 by an older build is narrowed too
  const deadline = Date.now() + timeoutMs;
  let content = "";
  for (;;) {
    // A waiter only tries to claim once the name is free: no temp file per poll while the holder works.
    if (!existsSync(path)) {
      content = JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() } satisfies Owner);
      if (claimFile(path, content)) break;
    }
    const held = readOwner(path);
    if (held === undefined) continue; // released between our look and our read: try again at once
    if (abandoned(held.owner, Date.now(), staleMs)) {
      takeOver(path, held.raw);
      continue;
    }
    if (Date.now() > deadline) {
      const by = held.owner
        ? ` by process ${held.owner.pid} for ${Math.round((Date.now() - held.owner.at) / 1000)} s`
        : "";
      throw conflict(
        "lock-busy",
        `${options.what} is busy: ${path} is held${by}`,
        "retry in a moment; remove the file only if no docket process is running",
      );
    }
    sleepSync(pollMs);
  }
  try {
    return fn();
  } finally {
    // Only our own claim is removed: one held past staleMs may have been taken over meanwhile.
    if (readOwner(path)?.raw === content) rmSync(path, { force: true });
  }
}
