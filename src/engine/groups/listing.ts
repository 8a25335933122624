// Which group each worker is a candidate of, and the groups of a project, for the listings (ls, the web queue and
// fleet, pi's fleet view) that nest candidates under their group. One read of two small tables.

import { listGroups } from "../../ledger/groups/groups.js";
import type { EngineContext } from "../context.js";

export interface GroupOfWorker {
  group: string;
  task: string;
  size: number;
  chosenRef: string | null;
}

export interface GroupSummary extends GroupOfWorker {
  workers: string[];
}

export function groupsOfWorkers(ctx: EngineContext): Map<string, GroupOfWorker> {
  const out = new Map<string, GroupOfWorker>();
  for (const g of listGroups(ctx.db, null)) {
    const facts = { group: g.id, task: g.task, size: g.size, chosenRef: g.chosenRef };
    for (const w of g.workers) out.set(w, facts);
  }
  return out;
}

/** This project's groups, newest first; `open`: only those still waiting for a choice. */
export function projectGroups(ctx: EngineContext, options: { open?: boolean } = {}): GroupSummary[] {
  return listGroups(ctx.db, ctx.projectRoot())
    .filter((g) => !options.open || g.chosenRef === null)
    .reverse()
    .map((g) => ({ group: g.id, task: g.task, size: g.size, chosenRef: g.chosenRef, workers: g.workers }));
}
