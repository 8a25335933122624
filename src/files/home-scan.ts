// A walk of what Docket owns in its home for `docket doctor` (modes, leftover temp files, links, never followed), and
// the repairs `--fix` makes from it; agents' own trees (a worker's `workspace/`, `git/`, `scratch/`, pi's `session/`)
// are not entered.

import { chmodSync, lstatSync, readdirSync, unlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { isWorkerId } from "../domain/ids.js";
import { TEMP_FILE } from "./atomic.js";
import type { HomeLayout } from "./home.js";
import { WORKER_FILES } from "./workers/worker-files.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private.js";

export interface OwnedEntry {
  path: string;
  kind: "dir" | "file";
  /** Permission bits only (mode & 0o777). */
  mode: number;
}

export interface TempFile {
  path: string;
  /** The pid of the process that was writing it. */
  pid: number;
}

export interface HomeScan {
  owned: OwnedEntry[];
  temps: TempFile[];
  links: string[];
}

/** Directories inside a worker directory that hold someone else's files: listed themselves, never entered. */
const NOT_ENTERED = new Set<string>([
  WORKER_FILES.workspace,
  WORKER_FILES.git,
  WORKER_FILES.scratch,
  WORKER_FILES.session,
]);
/**
 * Of those, the ones not even listed: a worktree, a contained worker's own git dir and its TMPDIR are written by git
 * and the agent with the user's umask; each sits inside a 0700 worker directory, which is what keeps it private.
 */
const AGENTS_OWN = new Set<string>([WORKER_FILES.workspace, WORKER_FILES.git, WORKER_FILES.scratch]);

/** The home, its ledger files, and every directory and file under `fleet/`, `deliverables/` and Docket's old `workers/w<N>/`. */
export function scanHome(home: HomeLayout): HomeScan {
  const scan: HomeScan = { owned: [], temps: [], links: [] };
  const visit = (path: string, depth: number, enter: (name: string, depth: number) => boolean): void => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // absent, or removed while we looked
    }
    if (st.isSymbolicLink()) {
      scan.links.push(path);
      return;
    }
    const mode = st.mode & 0o777;
    if (st.isFile()) {
      scan.owned.push({ path, kind: "file", mode });
      const m = TEMP_FILE.exec(basename(path));
      if (m) scan.temps.push({ path, pid: Number(m[2]) });
      return;
    }
    if (!st.isDirectory()) return;
    scan.owned.push({ path, kind: "dir", mode });
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return; // unreadable directory: its own mode is still reported
    }
    for (const name of names) {
      const child = join(path, name);
      if (!enter(name, depth + 1)) {
        if (AGENTS_OWN.has(name)) continue;
        try {
          const cst = lstatSync(child);
          if (cst.isDirectory()) scan.owned.push({ path: child, kind: "dir", mode: cst.mode & 0o777 });
        } catch {
          // vanished meanwhile
        }
        continue;
      }
      visit(child, depth + 1, enter);
    }
  };
  try {
    const st = lstatSync(home.root);
    if (st.isDirectory()) scan.owned.push({ path: home.root, kind: "dir", mode: st.mode & 0o777 });
  } catch {
    return scan; // no home yet: nothing to look at
  }
  for (const name of ["ledger.sqlite", "ledger.sqlite-wal", "ledger.sqlite-shm", "config.json"])
    visit(join(home.root, name), 1, () => false);
  const inWorker = (name: string, depth: number) => !(depth === 2 && NOT_ENTERED.has(name));
  visit(home.workers, 0, inWorker);
  visit(home.deliverables, 0, () => true);
  let legacy: string[] = [];
  try {
    legacy = readdirSync(home.legacyWorkers).filter((n) => isWorkerId(n));
  } catch {
    legacy = []; // no old workers/ directory
  }
  for (const id of legacy) visit(join(home.legacyWorkers, id), 1, inWorker);
  // Temp files of atomic writes in the home itself (none today, but a kill there must not go unseen either).
  try {
    for (const name of readdirSync(home.root)) {
      const m = TEMP_FILE.exec(name);
      if (m) scan.temps.push({ path: join(home.root, name), pid: Number(m[2]) });
    }
  } catch {
    // no home yet
  }
  return scan;
}

/** `docket doctor --fix`: directories found loose become 0700, files 0600. */
export function makePrivate(entries: readonly OwnedEntry[]): void {
  for (const e of entries) chmodSync(e.path, e.kind === "dir" ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
}

/** `docket doctor --fix`: removes the temp files of writers that are gone. */
export function removeFiles(paths: readonly string[]): void {
  for (const path of paths) unlinkSync(path);
}
