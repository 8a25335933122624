// This process's ancestors and their start times, read from /proc (Linux); empty where /proc is absent.
// The authority check walks them to find a live pi parent session above a CLI the parent agent's tools started.

import { readFileSync } from "node:fs";

/** `/proc/<pid>/stat` split after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // gone, or no /proc: the walk stops here
  }
  const close = text.lastIndexOf(")");
  return close === -1
    ? undefined
    : text
        .slice(close + 2)
        .trim()
        .split(" ");
}

/** The process's start time in clock ticks since boot (field 22): with the pid, it names one process, never a reused pid. */
export function processStartTime(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/** The ancestors of `pid`, nearest first, up to (not including) pid 1; at most `limit` of them. */
export function ancestorsOf(pid: number, limit = 64): number[] {
  const out: number[] = [];
  let at = pid;
  while (out.length < limit) {
    const ppid = Number(statFields(at)?.[1]);
    if (!Number.isInteger(ppid) || ppid <= 1) break;
    out.push(ppid);
    at = ppid;
  }
  return out;
}

export const ownPid = (): number => process.pid;
