// docs/performance.md from what benches printed: the figure lines of a run (bench/support/figure.ts) parsed, merged
// with the figures saved from earlier runs, and rendered beside the anchor tool's published figures.

import { FIGURE_PREFIX, type Figure } from "./figure.js";

export interface RunFigure extends Figure {
  bench: string;
  /** When it was measured (ISO), on how many cores, at what one-minute load. */
  at: string;
  cores: number;
  load: number;
}

/** The best existing tool's figures for the same work (anchor-performance.md, measured 2026-11-30 on 2 shared cores). */
export const ANCHOR: Record<string, { value: number; unit: Figure["unit"]; note?: string }> = {
  "store-save": { value: 2.08, unit: "ms", note: "no fsync" },
  "store-list": { value: 1840, unit: "ms" },
  publish: { value: 112, unit: "ms", note: "four git processes" },
  "append-decision": { value: 0.195, unit: "ms" },
  "is-approved": { value: 53.5, unit: "ms", note: "re-reads the whole log" },
  "plan-parse": { value: 28_700, unit: "/s" },
};

const isFigure = (x: unknown): x is RunFigure => {
  const f = x as Partial<RunFigure> | null;
  return (
    typeof f === "object" &&
    f !== null &&
    typeof f.bench === "string" &&
    typeof f.id === "string" &&
    typeof f.label === "string" &&
    typeof f.value === "number" &&
    Number.isFinite(f.value) &&
    typeof f.unit === "string" &&
    typeof f.at === "string"
  );
};

/** Every figure line in a bench's output, in order; any other line (the bench's human figures) is ignored. */
export function parseFigureLines(output: string): RunFigure[] {
  const out: RunFigure[] = [];
  for (const line of output.split("\n")) {
    const at = line.indexOf(FIGURE_PREFIX);
    if (at === -1) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.slice(at + FIGURE_PREFIX.length));
    } catch {
      throw new Error(`not a figure line: ${line.slice(0, 120)}`);
    }
    if (!isFigure(parsed))
      throw new Error(`a figure line lacks bench, id, label, value, unit or at: ${line.slice(0, 120)}`);
    out.push(parsed);
  }
  return out;
}

/** The saved figures with a new run's: a bench that ran replaces all of its earlier figures, the others stay. */
export function mergeFigures(saved: readonly RunFigure[], fresh: readonly RunFigure[]): RunFigure[] {
  const ran = new Set(fresh.map((f) => f.bench));
  return [...saved.filter((f) => !ran.has(f.bench)), ...fresh].sort((a, b) => a.bench.localeCompare(b.bench));
}

export function formatValue(value: number, unit: Figure["unit"]): string {
  if (unit === "/s")
    return value >= 10_000 ? `${(value / 1000).toFixed(1)} k/s` : `${Math.round(value).toLocaleString("en-US")}/s`;
  if (unit === "ms" && value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (unit === "ms") return `${value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(1) : Math.round(value)} ms`;
  if (unit === "x") return `×${value.toFixed(2)}`;
  return `${value} ${unit}`;
}

/** How many times the baseline: for a rate, baseline ÷ value (higher is slower either way). */
const ratio = (f: Figure): string => {
  if (!f.baseline || f.baseline.value === 0 || f.value === 0) return "";
  return ` (×${(f.unit === "/s" ? f.baseline.value / f.value : f.value / f.baseline.value).toFixed(2)})`;
};

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const day = (iso: string): string => iso.slice(0, 10);

/** The whole page: how it is made, then one table per bench, each row with its baseline and the anchor's figure. */
export function renderPage(figures: readonly RunFigure[]): string {
  const out = [
    "# Performance",
    "",
    "<!-- Written by `npm run bench:page` (scripts/perf-page.mjs) from the figure lines benches print; do not edit by hand. -->",
    "",
    "Every figure below is what a bench printed in the run named beside it, next to a bare baseline measured in the same",
    "run (the ratio is Docket's time over the baseline's). The last column is the best existing tool's published figure",
    "for the same work (pi-docket 0.8.1, measured 2026-11-30 on 2 shared cores), where it measured one.",
    "",
    "To measure again: `npm run bench:page -- <bench> [<bench> …]` runs those benches, keeps the figures of the others from",
    "`docs/performance-figures.json`, and writes this page; `npm run bench:page -- --all` runs every bench (slow),",
    "`npm run bench:page -- --render` only writes the page from the saved figures. The machine's load changes every",
    "figure: compare rows measured in the same run.",
  ];
  const benches = [...new Set(figures.map((f) => f.bench))].sort();
  if (benches.length === 0) out.push("", "No figures saved yet.");
  for (const bench of benches) {
    const rows = figures.filter((f) => f.bench === bench);
    const loads = rows.map((f) => f.load);
    const load =
      Math.min(...loads) === Math.max(...loads) ? `${loads[0]}` : `${Math.min(...loads)}–${Math.max(...loads)}`;
    const runs = [...new Set(rows.map((f) => `${day(f.at)}, ${f.cores} cores`))];
    out.push(
      "",
      `## ${bench}.bench (${runs.join("; ")} at load ${load})`,
      "",
      "| operation | Docket | same-run baseline | existing tool |",
      "|---|---|---|---|",
    );
    for (const f of rows) {
      const anchor = ANCHOR[f.id];
      out.push(
        `| ${cell(f.label)} | ${formatValue(f.value, f.unit)}${ratio(f)} | ${f.baseline ? cell(`${f.baseline.label} ${formatValue(f.baseline.value, f.unit)}`) : "—"} | ${
          anchor ? `${formatValue(anchor.value, anchor.unit)}${anchor.note ? ` (${anchor.note})` : ""}` : "—"
        } |`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}
