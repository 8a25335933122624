// A module a synchronous caller needs only on first use, loaded then by `require` of an ES module (node 20.19, 22.12
// and later). One rule for every lazy seam (the git and agents ports, the effect handlers, pi-ai's price table; the
// ledger, below substrate, writes its one seam for the migrations as `createRequire` of its neighbour). The CLI's
// bundle (scripts/bundle.mjs) turns each seam with a relative specifier into its own `require`, so a seam loads the
// bundled module rather than a second copy of it.

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * `spec` (relative to `from`, the caller's `import.meta.url`, or a file URL) as a getter that loads it on its first
 * call. The module itself must hold no top-level await (require refuses it).
 */
export function lazyModule<T>(from: string, spec: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(from)(fileURLToPath(new URL(spec, from))) as T);
}
