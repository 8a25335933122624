// Every entry below a directory as a relative path, a directory's with a trailing slash: what a test compares when it
// asserts which files a command left somewhere.

import { readdirSync } from "node:fs";
import { join } from "node:path";

export function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? [`${e.name}/`, ...walk(join(dir, e.name)).map((p) => `${e.name}/${p}`)] : [e.name],
  );
}
