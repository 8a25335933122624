// Worker lifecycle as pure rules: persisted states, the derived display state, liveness, and what an exit means.
// Display states and liveness are computed on every read, never stored (DESIGN §4, anchor §1.2–§1.3).

import type { WorkerAgent } from "./spawn-policy.js";
export type PersistedState = "starting" | "active" | "idle" | "needs_input" | "ready" | "failed" | "ended";
export type DisplayState = "starting" | "thinking" | "idle" | "stale" | "needs_input" | "consulting" | "ready" | "failed" | "ended" | "reviewed";
export type Liveness = "live" | "gone" | "unknown";
export type PaneProbe = "alive" | "dead" | "missing" | "unprobed";

/** No signal for this long makes a running worker `stale`; twice this makes it `gone`. */
export const STALE_AFTER_MS = 90_000;
export const HEARTBEAT_INTERVAL_MS = 15_000;

export const TERMINAL_STATES: readonly PersistedState[] = ["ready", "failed", "ended"];

export interface LifecycleView {
  state: PersistedState;
  agent: WorkerAgent;
  exited: boolean;
  heartbeatAt: string | null;
  updatedAt: string;
  reviewedAt: string | null;
  paneCapturedAt: string | null;
  pane: PaneProbe;
  /** Every open question is a consult still with the parent agent (none waits for the human). */
  consulting?: boolean;
}

export function isTerminal(state: PersistedState): boolean {
  return TERMINAL_STATES.includes(state);
}

export function resolveLiveness(w: LifecycleView, nowMs: number): Liveness {
  if (w.exited || w.paneCapturedAt !== null || w.pane === "dead" || w.pane === "missing") return "gone";
  const beat = w.heartbeatAt === null ? undefined : Date.parse(w.heartbeatAt);
  if (beat !== undefined && nowMs - beat > 2 * STALE_AFTER_MS) return "gone";
  if (w.pane === "alive" && (beat !== undefined || w.agent === "command")) return "live";
  if (beat !== undefined) return "live";
  return "unknown"; // absence of proof is never treated as live
}

export function resolveDisplayState(w: LifecycleView, nowMs: number): DisplayState {
  if (w.state === "needs_input") return w.consulting ? "consulting" : "needs_input";
  if (w.reviewedAt !== null && isTerminal(w.state)) return "reviewed";
  if (w.state === "failed" || w.state === "ready" || w.state === "ended") return w.state;
  const lastSignal = Math.max(Date.parse(w.updatedAt), w.heartbeatAt === null ? 0 : Date.parse(w.heartbeatAt));
  if (w.state !== "starting" && nowMs - lastSignal > STALE_AFTER_MS && !(w.agent === "command" && w.pane === "alive")) return "stale";
  if (w.state === "active") return "thinking";
  return w.state === "starting" ? "starting" : "idle";
}

/** What a process exit does to the row: the state it leaves and, when it failed, why. */
export function resolveExit(state: PersistedState, hasDeliverable: boolean, code: number): { state: PersistedState; error?: string } {
  if (state === "failed" || state === "ended") return { state };
  if (state === "ready" || hasDeliverable) return { state: "ended" };
  return { state: "failed", error: `worker process exited before reporting (exit ${code})` };
}

/** A heartbeat moves a starting worker to active; every other state is the worker's own word and stays. */
export function resolveHeartbeatState(state: PersistedState): PersistedState {
  return state === "starting" ? "active" : state;
}

/** A spawn whose process died leaves its row starting without a window; this long after its last change, it is over. */
export const SPAWN_GRACE_MS = 15_000;
/** Even while the process that started it still runs, a spawn this quiet is given up (its pid may have been reused). */
export const SPAWN_LIMIT_MS = 10 * 60_000;

export interface StartView {
  state: PersistedState;
  exited: boolean;
  windowId: string | null;
  updatedAt: string;
  /** Whether the process that is starting this worker still runs. */
  spawnerAlive: boolean;
}

/** A start that will never finish: still `starting`, no window recorded, and its spawner gone (or silent too long). */
export function isStalledStart(w: StartView, nowMs: number): boolean {
  if (w.state !== "starting" || w.exited || w.windowId !== null) return false;
  const quiet = nowMs - Date.parse(w.updatedAt);
  return quiet > SPAWN_LIMIT_MS || (quiet > SPAWN_GRACE_MS && !w.spawnerAlive);
}

/** Settled workers are done with: ended, or reviewed in a terminal state. Prune and `ls` folding use this. */
export function isSettled(w: { state: PersistedState; reviewedAt: string | null }): boolean {
  return w.state === "ended" || (w.reviewedAt !== null && isTerminal(w.state));
}
