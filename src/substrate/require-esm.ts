// A module a synchronous caller needs only on first use: `require` of an ES module loads it at that moment where node
// can (22.12 and later); where it cannot, it is imported with its user, as if it were not lazy. One rule for every
// lazy seam (the git and agents ports, the effect handlers, pi-ai's price table).

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** Whether this node's `require` loads an ES module. */
export const requireLoadsEsm: boolean = process.features.require_module === true;

/**
 * `spec` (relative to `from`, the caller's `import.meta.url`, or a file URL) as a getter that loads it on its first
 * call. Awaited once at the caller's top level; the module itself must hold no top-level await (require refuses it).
 */
export async function lazyModule<T>(from: string, spec: string): Promise<() => T> {
  const url = new URL(spec, from);
  if (!requireLoadsEsm) {
    const loaded = (await import(url.href)) as T;
    return () => loaded;
  }
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(from)(fileURLToPath(url)) as T);
}
