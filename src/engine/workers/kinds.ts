// The kind registry of one engine context: built-ins, then $DOCKET_HOME/kinds, then <project>/.docket/kinds.
// Later sources win by name; malformed or unreadable files become diagnostics, never failures
// (docs/decisions/spawn-policy.md).

import { join } from "node:path";
import {
  BUILTIN_KINDS,
  buildKindRegistry,
  wideningOf,
  type KindDiagnostic,
  type KindRegistry,
  type WorkerKind,
} from "../../domain/workers/kinds.js";
import { scanKindDirs } from "../../files/kinds-loader.js";
import type { EngineContext } from "../context.js";

export function projectKindsDir(ctx: EngineContext): string {
  return join(ctx.projectRoot(), ".docket", "kinds");
}

export function kindRegistry(ctx: EngineContext): KindRegistry {
  const scan = scanKindDirs(ctx.home.kinds, projectKindsDir(ctx));
  const registry = buildKindRegistry(scan.files);
  return { kinds: registry.kinds, diagnostics: [...scan.skipped, ...registry.diagnostics] };
}

export interface KindListing {
  /** Every effective kind, grouped builtin → user → project; built-ins in their shipped order, others by name. */
  kinds: WorkerKind[];
  diagnostics: KindDiagnostic[];
  dirs: { user: string; project: string };
  /** The kind a spawn without --as gets (config worker.defaultKind when it names a known kind). */
  defaultKind: string;
  configWarnings: string[];
}

const SOURCE_ORDER = { builtin: 0, user: 1, project: 2 } as const;

export function listKinds(ctx: EngineContext): KindListing {
  const { kinds, diagnostics } = kindRegistry(ctx);
  const sorted = [...kinds.values()].sort(
    (a, b) =>
      SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || (a.source === "builtin" ? 0 : a.name.localeCompare(b.name)),
  );
  const choice = trustedKindChoice(ctx, kinds, "defaultKind");
  return {
    kinds: sorted,
    diagnostics,
    dirs: { user: ctx.home.kinds, project: projectKindsDir(ctx) },
    defaultKind: choice.name && kinds.has(choice.name) ? choice.name : "default",
    configWarnings: [...ctx.configWarnings(), ...choice.warnings],
  };
}

/**
 * The kind config names for `worker.defaultKind` or `implementKind`, unless a PROJECT config chose a kind wider than
 * the built-in it stands for (`default`, `implementer`): a cloned repository may not lift a plan gate or read-only.
 */
export function trustedKindChoice(
  ctx: EngineContext,
  kinds: ReadonlyMap<string, WorkerKind>,
  which: "defaultKind" | "implementKind",
): { name: string | undefined; warnings: string[] } {
  const config = ctx.config();
  const name = (which === "defaultKind" ? config.worker.defaultKind : config.implementKind)?.trim().toLowerCase();
  const from = config.worker.kindChoicesFrom?.[which];
  const baseline = BUILTIN_KINDS.find((k) => k.name === (which === "defaultKind" ? "default" : "implementer"))!;
  const chosen = name ? kinds.get(name) : undefined;
  if (from !== "project" || !chosen) return { name, warnings: [] };
  const widening = wideningOf(baseline, chosen);
  if (widening.length === 0) return { name, warnings: [] };
  return {
    name: baseline.name,
    warnings: [
      `project config ${which === "defaultKind" ? "worker.defaultKind" : "implementKind"} "${name}" would ${widening.join(" and ")} of ${baseline.name}; using ${baseline.name} (only your user config may)`,
    ],
  };
}
