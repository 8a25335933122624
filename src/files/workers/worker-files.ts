// Small files in a worker's directory (task.md, status.json, pane-tail.txt, events, source-deliverable.md), read and
// written without following links: a link anywhere below the home is refused, never traversed (DESIGN §8a).

import { dirname, join } from "node:path";
import { writeFileAtomic } from "../atomic.js";
import type { HomeLayout } from "../home.js";
import { assertRealDirBelow, linkBelow, readNoFollow } from "../no-follow.js";

/** The file's text, or undefined when it is absent, a link (or behind one), or not a regular file. */
export function readWorkerText(home: HomeLayout, workerId: string, name: string): string | undefined {
  const path = join(home.workerDir(workerId), name);
  if (linkBelow(home.root, dirname(path))) return undefined;
  const read = readNoFollow(path);
  return read.ok === true ? read.bytes.toString("utf8") : undefined;
}

/** The path of `name` in the worker's directory, refused (`home-symlink`) when a link lies on the way there. */
export function workerFilePath(home: HomeLayout, workerId: string, name: string): string {
  const path = join(home.workerDir(workerId), name);
  assertRealDirBelow(home.root, dirname(path));
  return path;
}

/** Replaces `name` in the worker's directory atomically (0600), never through a link; `mkdir: false` never recreates it. */
export function writeWorkerFile(home: HomeLayout, workerId: string, name: string, text: string, options: { mkdir?: boolean } = {}): void {
  writeFileAtomic(workerFilePath(home, workerId, name), text, options);
}
