// An agent's own record files in a worker's private directory (pi's session/, Claude's CLAUDE_CONFIG_DIR/projects,
// Codex's CODEX_HOME/sessions), and reading what was appended since an offset: only complete lines, never through links.

import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readSync, constants } from "node:fs";
import { join } from "node:path";
import type { SpendAgent } from "../../domain/workers/spend.js";

const ROOTS: Record<SpendAgent, string[]> = { pi: ["session"], claude: ["claude", "projects"], codex: ["codex", "sessions"] };
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
  walk(join(workerDir, ...ROOTS[agent]), 0);
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

const CHUNK = 4 << 20;

/** Reads from `from` to the last newline; `known` is the identity the offset belongs to. Undefined when it cannot be read. */
export function readAppended(path: string, from: number, known: string | undefined): AppendedText | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined; // gone or a link since it was listed: nothing is read
  }
  try {
    const st = fstatSync(fd);
    const identity = `${st.dev}:${st.ino}`;
    const restarted = identity !== known || st.size < from;
    const start = restarted ? 0 : from;
    if (st.size === start) return { identity, offset: start, text: "", restarted };
    const parts: Buffer[] = [];
    let at = start;
    while (at < st.size) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, st.size - at));
      const n = readSync(fd, buf, 0, buf.length, at);
      if (n === 0) break;
      parts.push(n === buf.length ? buf : buf.subarray(0, n));
      at += n;
    }
    const all = Buffer.concat(parts);
    const end = all.lastIndexOf(0x0a) + 1; // a line still being written is read next time
    return { identity, offset: start + end, text: all.subarray(0, end).toString("utf8"), restarted };
  } finally {
    closeSync(fd);
  }
}
