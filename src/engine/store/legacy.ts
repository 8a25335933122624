// Legacy checkpoint bundles as the engine exposes them: listing only (load, preview, unload, delete go through store-slots).
// Read-only compatibility with the anchor tool's old save path; nothing here writes that format
// (docs/decisions/deliverable-store.md).

import { listLegacyBundles, type LegacyBundle } from "../../files/store/legacy-bundles.js";
import type { EngineContext } from "../context.js";

export type { LegacyBundle };

export function listLegacy(ctx: EngineContext, options: { includeConsumed?: boolean } = {}): LegacyBundle[] {
  return listLegacyBundles(ctx.home, options);
}
