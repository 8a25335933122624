// One machine-readable line per figure a bench measures, beside its human lines: `scripts/perf-page.mjs` collects
// these into docs/performance.md, so the page says what a run printed and nothing written by hand.

import { basename } from "node:path";
import { cpus, loadavg } from "node:os";

/** The prefix `scripts/perf-page.mjs` looks for; the rest of the line is one JSON object. */
export const FIGURE_PREFIX = "DOCKET-FIGURE ";

export interface Figure {
  /** Stable across runs: the page and the anchor table are keyed by it. */
  id: string;
  /** What was measured, as the page's first column says it. */
  label: string;
  value: number;
  unit: "ms" | "s" | "/s" | "MB" | "x";
  /** A bare baseline measured in the same run, when the bench has one. */
  baseline?: { label: string; value: number };
}

const bench = (): string => basename(process.argv[1] ?? "unknown").replace(/\.bench\.[jt]s$/, "");

export function figure(f: Figure): void {
  const round = (n: number): number => Number(n.toPrecision(4));
  const line = {
    bench: bench(),
    ...f,
    value: round(f.value),
    ...(f.baseline ? { baseline: { ...f.baseline, value: round(f.baseline.value) } } : {}),
    at: new Date().toISOString(),
    cores: cpus().length,
    load: Number(loadavg()[0]!.toFixed(1)),
  };
  console.log(`${FIGURE_PREFIX}${JSON.stringify(line)}`);
}
