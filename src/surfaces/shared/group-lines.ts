// Nesting a listing under best-of groups: the group's line (or its candidates, labelled) comes where its first candidate
// would, its candidates follow, every other row keeps its place. Pure over rows or already-rendered lines.

import type { GroupOfWorker } from "../../engine/groups/listing.js";

export interface ListedLine {
  worker: string;
  line: string;
}

export function nestUnderGroups(rows: readonly ListedLine[], groups: ReadonlyMap<string, GroupOfWorker>): string[] {
  const out: string[] = [];
  const placed = new Set<string>();
  for (const row of rows) {
    const g = groups.get(row.worker);
    if (!g) {
      out.push(row.line);
      continue;
    }
    if (placed.has(g.group)) continue;
    placed.add(g.group);
    const task = g.task.length > 50 ? `${g.task.slice(0, 47)}...` : g.task;
    out.push(`${g.group} · best of ${g.size} · ${task}${g.chosenRef ? ` · chose ${g.chosenRef}` : ""}`);
    for (const member of rows) if (groups.get(member.worker)?.group === g.group) out.push(`  ${member.line}`);
  }
  return out;
}

/** Rows with each group's candidates together where its first one stands, their task prefixed with the group id. */
export function groupRows<T extends { worker: string; task: string }>(
  rows: readonly T[],
  groups: ReadonlyMap<string, GroupOfWorker>,
): T[] {
  const nested = nestUnderGroups(
    rows.map((r) => ({ worker: r.worker, line: r.worker })),
    groups,
  );
  const byWorker = new Map(rows.map((r) => [r.worker, r]));
  return nested.flatMap((line) => {
    const row = byWorker.get(line.trim());
    if (!row) return [];
    const g = groups.get(row.worker);
    return [g ? { ...row, task: `${g.group} · ${row.task}` } : row];
  });
}
