// `$DOCKET_HOME/parents/<pid>.json`: the live pi parent sessions of this home (pid, start time, helper hash), 0600.
// A CLI whose ancestry reaches one of them was started by that session's tools, not typed by the human.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.js";
import { readNoFollow } from "./no-follow.js";
import { ensurePrivateDir } from "./private.js";

export interface ParentSessionRecord {
  pid: number;
  /** /proc start time of the pi process: a record whose pid was reused by another process does not match. */
  startTime: string;
  /** sha256 of the secret the session hands only to helpers it starts itself for the human (the review page's server). */
  helperSha256: string;
}

const dirOf = (home: string) => join(home, "parents");
const fileOf = (home: string, pid: number) => join(dirOf(home), `${pid}.json`);

export function writeParentSession(home: string, record: ParentSessionRecord): void {
  ensurePrivateDir(dirOf(home));
  writeFileAtomic(fileOf(home, record.pid), `${JSON.stringify(record)}\n`);
}

export function removeParentSession(home: string, pid: number): void {
  rmSync(fileOf(home, pid), { force: true });
}

/** The record of `pid`, or undefined (none, a link, or not the shape written above: never trusted further). */
export function readParentSession(home: string, pid: number): ParentSessionRecord | undefined {
  const read = readNoFollow(fileOf(home, pid));
  if (read.ok !== true || read.bytes.length > 4096) return undefined;
  try {
    const r = JSON.parse(read.bytes.toString("utf8")) as Partial<ParentSessionRecord>;
    if (r.pid !== pid || typeof r.startTime !== "string" || typeof r.helperSha256 !== "string") return undefined;
    return { pid, startTime: r.startTime, helperSha256: r.helperSha256 };
  } catch {
    return undefined; // not JSON: treated as no record (a torn write is replaced atomically, so this is foreign bytes)
  }
}
