// Whole-process timing for benches: commands run in interleaved rounds beside `node -e 0`, each reported as the
// median wall time and the mean CPU time (user + system, from this process's reaped-children counters on Linux).

import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { readFileSync } from "node:fs";
import { runLoggingModules } from "../../test/support/module-log.js";
import { figure } from "./figure.js";

export interface ProcessCase {
  label: string;
  argv: string[];
  options?: SpawnSyncOptions;
  /** Called before each run (e.g. to pick a fresh item); its argv replaces `argv` when given. */
  before?: (round: number) => string[] | undefined;
}

export interface ProcessFigure {
  label: string;
  wallMs: number;
  /** Mean CPU ms per run, or undefined where /proc is not available. */
  cpuMs: number | undefined;
}

const CLK_TCK = 100; // Linux USER_HZ

/** cutime + cstime of this process in ms: CPU used by children it has waited for. */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLK_TCK;
  } catch {
    return undefined;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs every case once per round, in a rotated order, `rounds` times; a failing run throws with its stderr. */
export function timeProcesses(cases: ProcessCase[], rounds: number): ProcessFigure[] {
  const wall = cases.map((): number[] => []);
  const cpu = cases.map((): number[] => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (k + r) % cases.length;
      const c = cases[i]!;
      const argv = c.before?.(r) ?? c.argv;
      const c0 = childrenCpuMs();
      const t0 = performance.now();
      const run = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8", ...c.options });
      wall[i]!.push(performance.now() - t0);
      const c1 = childrenCpuMs();
      if (c0 !== undefined && c1 !== undefined) cpu[i]!.push(c1 - c0);
      if (run.status !== 0)
        throw new Error(
          `${c.label} failed (${run.status}): ${String(run.stderr).slice(0, 400)}${String(run.stdout).slice(0, 400)}`,
        );
    }
  }
  return cases.map((c, i) => ({
    label: c.label,
    wallMs: median(wall[i]!),
    cpuMs: cpu[i]!.length === rounds ? cpu[i]!.reduce((a, b) => a + b, 0) / rounds : undefined,
  }));
}

/** One line per figure: wall median and CPU mean, each with its ratio to the first figure (the baseline). */
export function printFigures(figures: ProcessFigure[], aims: Record<string, number> = {}): void {
  const base = figures[0]!;
  const width = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) {
    const cpu =
      f.cpuMs === undefined || base.cpuMs === undefined
        ? ""
        : `   cpu ${f.cpuMs.toFixed(1).padStart(6)} ms ×${(f.cpuMs / base.cpuMs).toFixed(2)}`;
    const aim = aims[f.label] === undefined ? "" : `   (aim ≤ ×${aims[f.label]})`;
    console.log(
      `  ${f.label.padEnd(width)}   wall ${f.wallMs.toFixed(1).padStart(6)} ms ×${(f.wallMs / base.wallMs).toFixed(2)}${cpu}${aim}`,
    );
    if (f !== base)
      figure({
        id: `process:${f.label}`,
        label: `\`${f.label}\`, median wall`,
        value: f.wallMs,
        unit: "ms",
        baseline: { label: `\`${base.label}\``, value: base.wallMs },
      });
  }
}

/** How many ES modules and CommonJS files one run of `node <args>` loads (node's own and the logger excluded). */
export function countModules(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): { esm: number; cjs: number } {
  const logged = runLoggingModules(args, options);
  if (logged.run.status !== 0)
    throw new Error(`module count of ${args.join(" ")} failed: ${logged.run.stderr.slice(0, 400)}`);
  return { esm: logged.esm.length, cjs: logged.cjs.length };
}
