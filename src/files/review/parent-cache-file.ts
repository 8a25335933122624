// The home's cache of what git said about a parent checkout (`cache/parent-<hash>.json`): per question, the stamp it was
// answered under and the changed files. A projection, replaced atomically; read back as untrusted (any bad shape is
// an empty cache), and never needed: losing it costs git processes, nothing else.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { writeFileAtomic } from "../atomic.js";
import type { HomeLayout } from "../home.js";
import { readNoFollow } from "../no-follow.js";

export interface CachedChange {
  path: string;
  status: string;
}

export interface ParentCacheEntry {
  /** The repository-wide and per-path parts of the stamp the answer was read under. */
  repo: string;
  paths: string;
  changes: CachedChange[];
}

const MAX_BYTES = 4 * 1024 * 1024;
const MAX_ENTRIES = 2_000;

export function parentCachePath(home: HomeLayout, repoRoot: string): string {
  return join(home.root, "cache", `parent-${createHash("sha256").update(repoRoot).digest("hex").slice(0, 24)}.json`);
}

/** The cached answers by question key; empty when absent, unreadable, of another repository or of a bad shape. */
export function readParentCache(home: HomeLayout, repoRoot: string): Map<string, ParentCacheEntry> {
  const out = new Map<string, ParentCacheEntry>();
  const read = readNoFollow(parentCachePath(home, repoRoot), MAX_BYTES);
  if (read.ok !== true) return out;
  let data: unknown;
  try {
    data = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return out;
  }
  const file = data as { v?: unknown; repoRoot?: unknown; entries?: unknown };
  if (file?.v !== 1 || file.repoRoot !== repoRoot || !Array.isArray(file.entries)) return out;
  for (const e of file.entries.slice(0, MAX_ENTRIES) as unknown[]) {
    const entry = validEntry(e);
    if (!entry) return new Map(); // one bad entry and the whole file is not trusted
    out.set(entry.key, entry.value);
  }
  return out;
}

function validEntry(e: unknown): { key: string; value: ParentCacheEntry } | undefined {
  const x = e as { key?: unknown; repo?: unknown; paths?: unknown; changes?: unknown };
  if (
    typeof x?.key !== "string" ||
    typeof x.repo !== "string" ||
    typeof x.paths !== "string" ||
    !Array.isArray(x.changes)
  )
    return undefined;
  const changes: CachedChange[] = [];
  for (const c of x.changes as unknown[]) {
    const y = c as { path?: unknown; status?: unknown };
    if (
      typeof y?.path !== "string" ||
      typeof y.status !== "string" ||
      y.path === "" ||
      !/^[A-Z?][0-9]{0,3}$/.test(y.status)
    )
      return undefined;
    changes.push({ path: y.path, status: y.status });
  }
  return { key: x.key, value: { repo: x.repo, paths: x.paths, changes } };
}

/** Replaces the cache; a home that cannot be written leaves it as it was (the cache is never needed). */
export function writeParentCache(
  home: HomeLayout,
  repoRoot: string,
  entries: ReadonlyMap<string, ParentCacheEntry>,
): void {
  const list = [...entries].slice(-MAX_ENTRIES).map(([key, e]) => ({ key, ...e }));
  try {
    writeFileAtomic(parentCachePath(home, repoRoot), `${JSON.stringify({ v: 1, repoRoot, entries: list })}\n`);
  } catch {
    // a full disk or a read-only home: the next look asks git again
  }
}
