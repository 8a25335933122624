// A best-of group's comparison as plain lines, the same for `docket compare` and pi's overlay: a block per candidate
// (who, state, version, size, tests, spend, coverage, files only it touched), then the overlap between candidates.

import { formatCost } from "../../domain/workers/spend.js";
import type { ComparedCandidate, Comparison } from "../../engine/groups/compare.js";

export function formatComparison(c: Comparison): string[] {
  const lines = [
    `${c.group} · best of ${c.candidates.length} · ${c.task.length > 70 ? `${c.task.slice(0, 67)}...` : c.task}`,
    `  spend ${formatCost(c.spend)}${c.budgetUsd !== null ? ` of a $${c.budgetUsd.toFixed(2)} budget` : ""}${c.chosen ? ` · chosen ${c.chosen.ref} (${c.chosen.decision})` : ""}`,
  ];
  for (const k of c.candidates) lines.push(...candidateLines(k));
  lines.push(
    c.overlaps.length === 0
      ? "overlap: none (no two candidates changed the same file)"
      : `overlap: ${c.overlaps.map((o) => `${o.a}+${o.b} ${o.files.length} file${o.files.length === 1 ? "" : "s"} (${o.files.slice(0, 3).join(", ")}${o.files.length > 3 ? ", …" : ""})`).join("; ")}`,
  );
  if (!c.chosen) {
    const ready = c.candidates.filter((k) => k.ref !== null);
    lines.push(
      ready.length > 0
        ? `choose one: ${ready.map((k) => `\`docket choose ${k.ref}\``).join("  ")}`
        : "no candidate has published a version yet",
    );
  }
  return lines;
}

function candidateLines(k: ComparedCandidate): string[] {
  const who = `${k.worker} · ${k.agent} · ${k.model ?? "(agent's default model)"}`;
  const state = k.working ? "still working" : `${k.state}${k.exited ? " (exited)" : ""}`;
  if (k.ref === null) return [`${who} · ${state} · no version yet`];
  const mark = k.judgment === "open" || k.judgment === "none" ? "" : ` · ${k.judgment}`;
  return [
    `${who} · ${state} · ${k.ref}${mark}`,
    ...(k.invalid
      ? [`    ⚠ ${k.invalid}`]
      : [
          `    ${k.files.length} file${k.files.length === 1 ? "" : "s"} +${k.additions} −${k.deletions} · ${k.hunks} hunk${k.hunks === 1 ? "" : "s"} · ${k.outcome}: ${k.summary ?? ""}`,
        ]),
    `    tests: ${k.tests.length === 0 ? "none given" : k.tests.join("; ")} · evidence ${k.evidence} · spend ${k.spend ? formatCost(k.spend) : "unknown"}`,
    ...(k.planCoverage ? [`    plan: ${k.planCoverage}`] : []),
    ...(k.onlyHere.length > 0
      ? [
          `    only here: ${k.onlyHere.slice(0, 6).join(", ")}${k.onlyHere.length > 6 ? ` (+${k.onlyHere.length - 6} more)` : ""}`,
        ]
      : []),
  ];
}
