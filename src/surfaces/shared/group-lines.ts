// Nesting a listing's worker lines under their best-of group: the group's line comes where its first candidate would,
// its candidates follow indented, every other line keeps its place. Pure over already-rendered lines.

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
