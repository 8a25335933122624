// Where a package Docket depends on is installed: the nearest `node_modules/<name>` up from this file, the way node
// looks. One answer whether Docket runs from its compiled modules or from the CLI's bundle (which has no
// `import.meta.resolve`), and for packages whose exports name no `package.json`.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The directory of installed package `name`, or undefined when it is not installed beside Docket. */
export function packageDir(name: string): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The parsed package.json of installed package `name`, with its directory; undefined when it is not installed. */
export function installedPackage(name: string): { dir: string; manifest: Record<string, unknown> } | undefined {
  const dir = packageDir(name);
  if (dir === undefined) return undefined;
  return { dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown> };
}
