// Files in a worker's directory (task.md, status.json, pane-tail.txt, events, session, source-deliverable.md): read,
// written and removed without following links; a link anywhere below the home is refused, never traversed
// (docs/decisions/authority.md).

import { existsSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../atomic.js";
import type { HomeLayout } from "../home.js";
import { assertRealDirBelow, linkBelow, readNoFollow, readNoFollowTail } from "../no-follow.js";

/** Every name Docket gives a file or directory in `fleet/<id>/` (the sidecars live in deliverables.ts). */
export const WORKER_FILES = {
  task: "task.md",
  status: "status.json",
  paneTail: "pane-tail.txt",
  events: "events.ndjson",
  session: "session",
  workspace: "workspace",
  launchEnv: "launch.env",
  sourcePlan: "source-deliverable.md",
  /** A contained worker's own git dir (substrate/git/private-git-dir.ts finds it beside the workspace). */
  git: "git",
  /** A contained worker's own TMPDIR. */
  scratch: "scratch",
  /** What the human's side saw of the checkout and the workspace at spawn, the plan gate's question and its discharge. */
  integrity: "integrity.json",
  /** A contained worker's network allow list for its current generation, read by the door's egress proxy. */
  egress: "egress.json",
} as const;

export type WorkerFile = (typeof WORKER_FILES)[keyof typeof WORKER_FILES];

/** Where `name` is in the worker's directory (which may not exist yet); no link check: for paths recorded or passed on. */
export function workerPath(home: HomeLayout, workerId: string, name: WorkerFile): string {
  return join(home.workerDir(workerId), name);
}

/** The file's text, or undefined when it is absent, a link (or behind one), or not a regular file. */
export function readWorkerText(home: HomeLayout, workerId: string, name: WorkerFile): string | undefined {
  const path = workerPath(home, workerId, name);
  if (linkBelow(home.root, dirname(path))) return undefined;
  const read = readNoFollow(path);
  return read.ok === true ? read.bytes.toString("utf8") : undefined;
}

/** The last `maxBytes` of the file as text (its first, possibly cut, line dropped when cut), or undefined as above. */
export function readWorkerTail(
  home: HomeLayout,
  workerId: string,
  name: WorkerFile,
  maxBytes: number,
): string | undefined {
  const path = workerPath(home, workerId, name);
  if (linkBelow(home.root, dirname(path))) return undefined;
  const read = readNoFollowTail(path, maxBytes);
  if (read.ok !== true) return undefined;
  const text = read.bytes.toString("utf8");
  return read.bytes.length < maxBytes ? text : text.slice(text.indexOf("\n") + 1);
}

/** The path of `name` in the worker's directory, refused (`home-symlink`) when a link lies on the way there. */
export function workerFilePath(home: HomeLayout, workerId: string, name: WorkerFile): string {
  const path = workerPath(home, workerId, name);
  assertRealDirBelow(home.root, dirname(path));
  return path;
}

/** Replaces `name` in the worker's directory atomically (0600), never through a link; `mkdir: false` never recreates it. */
export function writeWorkerFile(
  home: HomeLayout,
  workerId: string,
  name: WorkerFile,
  text: string,
  options: { mkdir?: boolean; durable?: boolean } = {},
): void {
  writeFileAtomic(workerFilePath(home, workerId, name), text, options);
}

/**
 * Writes a projection (status.json) only into a worker directory that exists and is real: never recreates one a failed
 * spawn or a delete removed, and a removal racing the write is not an error.
 */
export function writeWorkerProjection(home: HomeLayout, workerId: string, name: WorkerFile, text: string): void {
  const dir = home.workerDir(workerId);
  if (!existsSync(dir) || linkBelow(home.root, dir)) return; // not made yet by spawn, already removed, or a link
  try {
    writeWorkerFile(home, workerId, name, text, { mkdir: false, durable: false }); // the ledger holds what it shows
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && !existsSync(dir)) return; // removed while we wrote
    throw error;
  }
}

/** Removes `name` (a file or a tree, such as pi's `session/`) from the worker's directory, never through a link. */
export function removeWorkerPath(home: HomeLayout, workerId: string, name: WorkerFile): void {
  rmSync(workerFilePath(home, workerId, name), { recursive: true, force: true });
}

/** Removes the worker's whole directory (a spawn that failed part-way leaves nothing behind). */
export function removeWorkerDir(home: HomeLayout, workerId: string): void {
  rmSync(home.workerDir(workerId), { recursive: true, force: true, maxRetries: 3 });
}

/** Whether pi left a session transcript in `sessionDir` that a new generation can continue. */
export function hasSessionTranscript(sessionDir: string): boolean {
  return existsSync(sessionDir) && readdirSync(sessionDir).some((f) => f.endsWith(".jsonl"));
}
