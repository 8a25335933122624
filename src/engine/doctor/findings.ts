// What `docket doctor` reports: one finding per check, each saying what is wrong and what to do about it.
// `problem` findings make the command exit 1; `warning` ones do not; `fixed` says --fix repaired it.

export type Severity = "ok" | "warning" | "problem";

export interface Finding {
  /** Stable name of the check: `ledger`, `modes`, `temp-files`, `store-index`, `tmux`, … */
  check: string;
  severity: Severity;
  message: string;
  /** What the human should do (absent when nothing needs doing). */
  fix?: string;
  /** True when `--fix` repaired it in this run. */
  fixed?: boolean;
  paths?: string[];
}

export interface DoctorReport {
  home: string;
  /** False while any `problem` remains. */
  ok: boolean;
  findings: Finding[];
}

export const ok = (check: string, message: string): Finding => ({ check, severity: "ok", message });
export const problem = (check: string, message: string, fix: string): Finding => ({
  check,
  severity: "problem",
  message,
  fix,
});

/** At most `n` paths, then "… and K more", so one finding stays readable on a terminal. */
export function samplePaths(paths: readonly string[], n = 5): string[] {
  return paths.length <= n ? [...paths] : [...paths.slice(0, n), `… and ${paths.length - n} more`];
}
