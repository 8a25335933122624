// Evidence about a worker as pure rules: why a dead pane failed (its last lines, its exit), when silence is `stuck`,
// and which recorded findings still hold for the row as it is now (docs/decisions/evidence-based-state.md).

import { isTerminal, type PersistedState } from "./lifecycle.js";
import { plainText } from "../talk/notify.js";

/** How many of a dead pane's last lines its failure quotes. */
const DEAD_PANE_QUOTED_LINES = 4;

/** What a dead pane's screen tells: its exit status (tmux's `Pane is dead (status N …)` line) and its last words. */
export function readDeadPane(text: string): { code: number | null; lastLines: string[] } {
  const lines = text.split("\n").map((l) => l.trimEnd());
  let code: number | null = null;
  const words: string[] = [];
  for (const line of lines) {
    const dead = /^Pane is dead \((?:status (\d+)|signal (\d+))/.exec(line.trim());
    if (dead) {
      code = dead[1] !== undefined ? Number(dead[1]) : 128 + Number(dead[2]);
      continue;
    }
    if (line.trim() !== "") words.push(plainText(line, 200));
  }
  return { code, lastLines: words.slice(-DEAD_PANE_QUOTED_LINES) };
}

/** The failure a dead pane (or a window closed from outside) records, in words the human reads. */
export function deadPaneReason(pane: { code: number | null; lastLines: string[] } | "window-gone"): string {
  if (pane === "window-gone") return "its window was closed before the worker reported (no exit was recorded)";
  const exit =
    pane.code === null ? "" : pane.code > 128 ? ` (killed by signal ${pane.code - 128})` : ` (exit ${pane.code})`;
  const said = pane.lastLines.length > 0 ? `; its last lines: ${pane.lastLines.join(" ⏎ ")}` : "";
  return `its process died before reporting${exit}${said}`;
}

/** The latest sign of progress: a heartbeat, a call that changed its row, a tool event, a change on its screen. */
export function lastProgressMs(signs: readonly (string | number | null | undefined)[]): number {
  let latest = 0;
  for (const s of signs) {
    const ms = typeof s === "string" ? Date.parse(s) : (s ?? 0);
    if (Number.isFinite(ms) && ms > latest) latest = ms;
  }
  return latest;
}

/** Whether a working worker (starting or active) has shown no progress for `stuckMs` (0: never stuck). */
export function isStuck(state: PersistedState, lastProgress: number, nowMs: number, stuckMs: number): boolean {
  if (stuckMs <= 0 || (state !== "starting" && state !== "active")) return false;
  return lastProgress > 0 && nowMs - lastProgress >= stuckMs;
}

export function stuckText(stuckMs: number): string {
  const minutes = stuckMs / 60_000;
  const said = minutes >= 1 ? `${Number(minutes.toFixed(1))} min` : `${Math.round(stuckMs / 1000)} s`;
  return `no sign of progress (heartbeat, call, tool or screen change) for ${said} (worker.stuckMinutes)`;
}

export interface RecordedFinding {
  kind: "blocked" | "stuck" | "refused";
  text: string;
  foundAt: string;
}

export interface FindingsView {
  blocked?: boolean;
  stuck?: boolean;
  /** Why it shows what it shows beyond its state word: the agent's words, the silence, the refusal. */
  reason: string | null;
}

/**
 * Which of a generation's open findings still hold for the row as it is now: none once it is terminal or asking; a
 * stuck finding ends with any signal after it. The reason is the failure's, else the strongest finding's text.
 */
export function findingsView(
  row: { state: PersistedState; heartbeatAt: string | null; updatedAt: string; lastError: string | null },
  findings: readonly RecordedFinding[],
): FindingsView {
  if (row.state === "failed") return { reason: row.lastError };
  if (isTerminal(row.state) || row.state === "needs_input") return { reason: null };
  const last = (kind: RecordedFinding["kind"]) => findings.filter((f) => f.kind === kind).at(-1);
  const blocked = last("blocked");
  const stuckFinding = last("stuck");
  const stuck =
    stuckFinding !== undefined && lastProgressMs([row.updatedAt, row.heartbeatAt]) <= Date.parse(stuckFinding.foundAt);
  const refused = last("refused");
  const reason = blocked?.text ?? (stuck ? stuckFinding.text : undefined) ?? refused?.text ?? null;
  return { ...(blocked ? { blocked: true } : {}), ...(stuck ? { stuck: true } : {}), reason };
}
