// Small text files in a worker's directory (source-deliverable.md, pane-tail.txt), read without following links.
// A link anywhere below the home reads as absent: reviewed input is never taken from outside the home (DESIGN §8a).

import { dirname, join } from "node:path";
import type { HomeLayout } from "../home.js";
import { linkBelow, readNoFollow } from "../no-follow.js";

/** The file's text, or undefined when it is absent, a link (or behind one), or not a regular file. */
export function readWorkerText(home: HomeLayout, workerId: string, name: string): string | undefined {
  const path = join(home.workerDir(workerId), name);
  if (linkBelow(home.root, dirname(path))) return undefined;
  const read = readNoFollow(path);
  return read.ok === true ? read.bytes.toString("utf8") : undefined;
}
