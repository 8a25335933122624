// Which group each worker is a candidate of, for the listings (ls, the web fleet, pi's fleet view) that nest candidates
// under their group. One read of two small tables.

import { listGroups } from "../../ledger/groups/groups.js";
import type { EngineContext } from "../context.js";

export interface GroupOfWorker {
  group: string;
  task: string;
  size: number;
  chosenRef: string | null;
}

export function groupsOfWorkers(ctx: EngineContext): Map<string, GroupOfWorker> {
  const out = new Map<string, GroupOfWorker>();
  for (const g of listGroups(ctx.db, null)) {
    const facts = { group: g.id, task: g.task, size: g.size, chosenRef: g.chosenRef };
    for (const w of g.workers) out.set(w, facts);
  }
  return out;
}
