// Where a path really leads, for a check made before a file is touched: links resolved on the part that exists, the
// rest (a file about to be made) appended as written. `..` after a link is resolved by the kernel, never by string.

import { realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** The real path `path` names (absolute, or taken from `cwd`); a missing tail is kept as it is. */
export function realPathOf(cwd: string, path: string): string {
  let head = resolve(cwd, path);
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return join(head, ...tail.reverse());
      tail.push(basename(head));
      head = parent;
    }
  }
}
