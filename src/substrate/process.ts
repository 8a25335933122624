// Whether a local process still runs: how a start that died part-way is told from one that is merely slow.
// Signal 0 checks without signalling; EPERM means the process exists but belongs to someone else.

import { readFileSync } from "node:fs";

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Alive and not a zombie: a SIGKILLed process whose parent died first stays a zombie until a reaper takes it, which
 * in a container without an init may be never. Linux tells by /proc; elsewhere, signal 0 as above.
 */
export function isProcessRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc here
  }
}

/** A running process's argv (Linux /proc); undefined where it cannot be read (gone, or no /proc here). */
export function processArgv(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
  } catch {
    return undefined;
  }
}
