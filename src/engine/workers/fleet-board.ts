// The fleet as the review page shows it: `docket ls` rows (same derived state and liveness, same tmux probe) plus
// each worker's age, current version, the items it holds through active bindings, and whether its base moved.

import { formatBaseMoved } from "../../domain/review/base-moved.js";
import { activeItemsByWorker } from "../../ledger/work/bindings.js";
import type { EngineContext } from "../context.js";
import { listWorkers, type WorkerListEntry } from "./view.js";

export interface FleetEntry extends WorkerListEntry {
  age: string;
  version: number | null;
  items: string[];
  /** `base moved · N files` when promotions landed files it works on since it began; null otherwise. */
  baseMoved: string | null;
}

export function fleetBoard(ctx: EngineContext, options: { all?: boolean } = {}): FleetEntry[] {
  const { workers, ages, baseMoved } = listWorkers(ctx, options);
  const items = activeItemsByWorker(ctx.db);
  return workers.map((w) => ({
    ...w,
    age: ages.get(w.worker) ?? "",
    version: w.deliverable ? Number(w.deliverable.slice(w.deliverable.lastIndexOf(":") + 1)) : null,
    items: items.get(w.worker) ?? [],
    baseMoved: formatBaseMoved(baseMoved.get(w.worker) ?? { files: [], refs: [] }) ?? null,
  }));
}
