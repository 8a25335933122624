// The process table from Linux /proc, for tests that wait on what they started: parent, session and start time per
// pid. A process is known by pid *and* start time, so a reused pid is never mistaken for one the test started.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface Proc {
  pid: number;
  ppid: number;
  /** Session id: every process in a tmux pane shares the pane process's (tmux makes each pane a session). */
  sid: number;
  /** Start time in clock ticks since boot: with the pid, the process's identity. */
  start: string;
  /** R, S, D, Z (zombie: exited, not yet reaped — it runs nothing), … */
  state: string;
}

export function readProc(pid: number): Proc | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // gone (or never existed)
  }
  // "pid (comm) state ppid pgrp session … starttime …": comm may hold spaces and parentheses, so split after the last ")".
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pid, ppid: Number(f[1]), sid: Number(f[3]), start: f[19]!, state: f[0]! };
}

export function processTable(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p) out.push(p);
  }
  return out;
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100; // USER_HZ on every common Linux build
  }
})();

/** Now, on the clock of `Proc.start` (ticks since boot): a process with a later start began after this moment. */
export function ticksNow(): number {
  return Math.floor(Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * TICKS_PER_SECOND);
}

/** Alive: the same process (pid and start time) still exists and is not a zombie. */
export function isAlive(p: Pick<Proc, "pid" | "start">): boolean {
  const now = readProc(p.pid);
  return now !== undefined && now.start === p.start && now.state !== "Z" && now.state !== "X";
}

/** The process's command line, for failure messages ("" once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}

/** The children of `pid` whose command is git (the door capturing a change set: its threads share the door's pid). */
export function gitChildren(pid: number): number[] {
  return processTable()
    .filter((p) => p.ppid === pid && /\bgit\b/.test(commandLine(p.pid)))
    .map((p) => p.pid);
}

/** True when the process runs in one of `dirs` or names one in its environment (DOCKET_HOME, TMPDIR, HOME …). */
export function refersTo(pid: number, dirs: readonly string[]): boolean {
  if (dirs.length === 0) return false;
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    if (dirs.some((d) => cwd === d || cwd.startsWith(`${d}/`))) return true;
    const env = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    return env.some((kv) => dirs.some((d) => kv.includes(`=${d}/`) || kv.endsWith(`=${d}`)));
  } catch {
    return false; // gone, or another user's process
  }
}

/** This process and its ancestors: never waited for, never signalled. */
export function selfAndAncestors(): Set<number> {
  const out = new Set<number>();
  for (let pid = process.pid; pid > 1 && !out.has(pid); ) {
    out.add(pid);
    const p = readProc(pid);
    if (!p) break;
    pid = p.ppid;
  }
  return out;
}
