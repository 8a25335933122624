// An agent's own record files in a worker's private directory (pi's session/, Claude's CLAUDE_CONFIG_DIR/projects,
// Codex's CODEX_HOME/sessions), and reading what was appended since an offset: only complete lines, never through links.

import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readSync, constants } from "node:fs";
import { join } from "node:path";
import { AGENT_TRAITS, type SpendAgent } from "../../domain/agents/traits.js";

const MAX_DEPTH = 5;

/** Every `.jsonl` file under the agent's record folder of this worker's directory (links are not followed). */
export function agentRecordFiles(workerDir: string, agent: SpendAgent): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // no such folder yet: the agent has recorded nothing
    }
    for (const name of names.sort()) {
      const path = join(dir, name);
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory() && depth < MAX_DEPTH) walk(path, depth + 1);
      else if (st.isFile() && name.endsWith(".jsonl")) out.push(path);
    }
  };
  walk(join(workerDir, ...AGENT_TRAITS[agent].spendRecords.path), 0);
  return out;
}

export interface AppendedText {
  /** `dev:ino`: a replaced file is read again from the start. */
  identity: string;
  /** Where the complete lines read end (the next read starts here). */
  offset: number;
  /** The complete lines after the given offset (empty when nothing was appended). */
  text: string;
  /** The file was replaced or truncated, so `text` starts at its beginning. */
  restarted: boolean;
}

/**
 * The most one read takes of one record file (a view's refresh of spend): what lies past it is read by the next view,
 * so a worker's planted 175 MB session costs an unrelated `ls` or card at most this much. A line longer
 * than this (no agent writes usage lines near it) is skipped unread, never parsed.
 */
export const RECORD_READ_BYTES = 4 << 20;

/**
 * Reads from `from` to the last newline within `budget` bytes; `known` is the identity the offset belongs to.
 * Undefined when it cannot be read. An offset that is not at a line's start (the byte before it is no newline) lies
 * inside an over-long line being skipped: the read resumes after that line's end.
 */
export function readAppended(
  path: string,
  from: number,
  known: string | undefined,
  budget = RECORD_READ_BYTES,
): AppendedText | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined; // gone or a link since it was listed: nothing is read
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    const identity = `${st.dev}:${st.ino}`;
    const restarted = identity !== known || st.size < from;
    const start = restarted ? 0 : from;
    if (st.size === start) return { identity, offset: start, text: "", restarted };
    const buf = Buffer.allocUnsafe(Math.min(budget, st.size - start));
    const got = buf.subarray(0, readFully(fd, buf, start));
    let skip = 0;
    if (start > 0 && !atLineStart(fd, start)) {
      skip = got.indexOf(0x0a) + 1;
      if (skip === 0) return { identity, offset: start + got.length, text: "", restarted }; // still inside the long line
    }
    const end = got.lastIndexOf(0x0a) + 1;
    // No line ends within the budget: a line too long to be usage; skipped (the next read resumes after it).
    if (end === 0 && got.length === budget) return { identity, offset: start + got.length, text: "", restarted };
    // A line still being written is read next time.
    return {
      identity,
      offset: start + Math.max(end, skip),
      text: got.subarray(skip, Math.max(end, skip)).toString("utf8"),
      restarted,
    };
  } finally {
    closeSync(fd);
  }
}

function readFully(fd: number, buf: Buffer, at: number): number {
  let n = 0;
  while (n < buf.length) {
    const r = readSync(fd, buf, n, buf.length - n, at + n);
    if (r === 0) break;
    n += r;
  }
  return n;
}

/** Whether `offset` starts a line: the byte before it is a newline. */
function atLineStart(fd: number, offset: number): boolean {
  const one = Buffer.alloc(1);
  return readSync(fd, one, 0, 1, offset - 1) === 1 && one[0] === 0x0a;
}
