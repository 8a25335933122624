// Worker lifecycle as pure rules: persisted states, display state, liveness, and every state transition as
// (current row, event) → patch, which the engine applies; display and liveness are computed on every read
// (docs/decisions/workers.md).

import { AGENT_TRAITS, type WorkerAgent } from "../agents/traits.js";

/** An agent with no heartbeat (a command): a running pane is all the liveness it will ever show. */
const livesByPane = (agent: WorkerAgent): boolean => AGENT_TRAITS[agent].liveness === "pane";
export type PersistedState = "starting" | "active" | "idle" | "needs_input" | "ready" | "failed" | "ended";
export type DisplayState =
  | "starting"
  | "thinking"
  | "idle"
  | "stale"
  | "needs_input"
  | "consulting"
  | "ready"
  | "revising"
  | "failed"
  | "blocked"
  | "stuck"
  | "ended"
  | "reviewed";
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
  /** What observers found and recorded about this generation (evidence.ts): the agent's own error, no progress. */
  findings?: { blocked?: boolean; stuck?: boolean };
}

export function isTerminal(state: PersistedState): boolean {
  return TERMINAL_STATES.includes(state);
}

export function resolveLiveness(w: LifecycleView, nowMs: number): Liveness {
  if (w.exited || w.paneCapturedAt !== null || w.pane === "dead" || w.pane === "missing") return "gone";
  const beat = w.heartbeatAt === null ? undefined : Date.parse(w.heartbeatAt);
  if (beat !== undefined && nowMs - beat > 2 * STALE_AFTER_MS) return "gone";
  if (w.pane === "alive" && (beat !== undefined || livesByPane(w.agent))) return "live";
  if (beat !== undefined) return "live";
  return "unknown"; // absence of proof is never treated as live
}

export function resolveDisplayState(w: LifecycleView, nowMs: number): DisplayState {
  if (w.state === "needs_input") return w.consulting ? "consulting" : "needs_input";
  if (w.reviewedAt !== null && isTerminal(w.state)) return "reviewed";
  if (w.state === "failed" || w.state === "ready" || w.state === "ended") return w.state;
  // Evidence outranks the persisted word: an agent that said it cannot go on, or showed no progress for long.
  if (w.findings?.blocked) return "blocked";
  if (w.findings?.stuck) return "stuck";
  const lastSignal = Math.max(Date.parse(w.updatedAt), w.heartbeatAt === null ? 0 : Date.parse(w.heartbeatAt));
  if (w.state !== "starting" && nowMs - lastSignal > STALE_AFTER_MS && !(livesByPane(w.agent) && w.pane === "alive"))
    return "stale";
  if (w.state === "active") return "thinking";
  return w.state === "starting" ? "starting" : "idle";
}

/**
 * A worker whose current version the human sent back (its latest judgment is a revise) owes the next version: while it
 * is ready, idle or thinking it shows `revising`, so neither `ls` nor the human reads it as waiting for judgment. A
 * question, a failure, an exit or silence still show as themselves.
 */
export function withRevision(state: DisplayState, revisionAsked: boolean): DisplayState {
  return revisionAsked && (state === "ready" || state === "idle" || state === "thinking") ? "revising" : state;
}

/** What a process exit does to the row: the state it leaves and, when it failed, why. */
export function resolveExit(
  state: PersistedState,
  hasDeliverable: boolean,
  code: number,
): { state: PersistedState; error?: string } {
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

// ── Transitions: (current row, event) → the patch to apply; the engine applies it and sets no state itself. ──────

/** The lifecycle columns a transition may set; anything absent stays as it is. */
export interface LifecyclePatch {
  state?: PersistedState;
  lastError?: string | null;
  exited?: boolean;
  exitCode?: number | null;
  exitedAt?: string | null;
  settledAt?: string | null;
  heartbeatAt?: string | null;
  paneCapturedAt?: string | null;
  reviewedAt?: string | null;
  tmuxSession?: string | null;
  windowId?: string | null;
  paneId?: string | null;
  deletedAt?: string;
}

/** What a transition reads of the current row. */
export interface LifecycleRow {
  state: PersistedState;
  agent: WorkerAgent;
  hasDeliverable: boolean;
}

export type LifecycleEvent =
  /** docket_wait asked the human one question. */
  | { kind: "asked" }
  /** docket_fail: the worker gave up. */
  | { kind: "gave-up"; reason: string }
  /** docket_done published a new current version. */
  | { kind: "published" }
  /** A question was answered (answer, tell --q); `openQuestions` are those still open after it. */
  | { kind: "answered"; openQuestions: number }
  | { kind: "heartbeat" }
  | { kind: "turn"; edge: "start" | "end" }
  /** The wrapper's last word: the process exited with `code`. */
  | { kind: "exited"; code: number }
  /** A generation got its window (spawn, respawn). */
  | { kind: "launched"; session: string; windowId: string; paneId: string }
  /** Respawn: a new generation starts from scratch. */
  | { kind: "respawned" }
  /** A spawn failed part-way (`retire`: before anything started, so the row goes unseen). */
  | { kind: "spawn-failed"; reason: string; retire: boolean }
  /** A respawned generation could not be launched. */
  | { kind: "launch-failed"; reason: string }
  /** A start whose spawner died before it had a window. */
  | { kind: "start-abandoned"; reason: string }
  /** Its pane died (or its window went) without the wrapper reporting an exit: `code` when tmux kept it. */
  | { kind: "pane-died"; reason: string; code: number | null };

/** The one place a worker's state changes. Pure: `now` is the command's time. */
export function transition(row: LifecycleRow, event: LifecycleEvent, now: string): LifecyclePatch {
  switch (event.kind) {
    case "asked":
      return { state: "needs_input" };
    case "gave-up":
      return { state: "failed", lastError: event.reason };
    case "published":
      return { state: "ready", lastError: null, reviewedAt: null };
    case "answered":
      return row.state === "needs_input" && event.openQuestions === 0 ? { state: "active" } : {};
    case "heartbeat": {
      const state = resolveHeartbeatState(row.state);
      return { heartbeatAt: now, ...(state !== row.state ? { state } : {}) };
    }
    case "turn": {
      const from: PersistedState[] = event.edge === "start" ? ["starting", "idle"] : ["active", "starting"];
      return from.includes(row.state) ? { state: event.edge === "start" ? "active" : "idle" } : {};
    }
    case "exited": {
      const next = resolveExit(row.state, row.hasDeliverable, event.code);
      return {
        exited: true,
        exitCode: event.code,
        exitedAt: now,
        state: next.state,
        ...(next.error ? { lastError: next.error } : {}),
        ...(next.state === "ended" || next.state === "failed" ? { settledAt: now } : {}),
      };
    }
    case "launched":
      // A command agent has no heartbeat: a running pane is all the liveness it will ever show, so it is active now
      // (unless it already spoke for itself, e.g. reported done before the window was recorded).
      return {
        tmuxSession: event.session,
        windowId: event.windowId,
        paneId: event.paneId,
        ...(livesByPane(row.agent) && row.state === "starting" ? { state: "active" } : {}),
      };
    case "respawned":
      return {
        state: "starting",
        exited: false,
        exitCode: null,
        exitedAt: null,
        lastError: null,
        heartbeatAt: null,
        windowId: null,
        paneId: null,
        paneCapturedAt: null,
        reviewedAt: null,
        settledAt: null,
      };
    case "spawn-failed":
      // Its window, if it got one, was closed: nothing is left to harvest.
      return {
        state: "failed",
        lastError: event.reason,
        exited: true,
        exitedAt: now,
        paneCapturedAt: now,
        ...(event.retire ? { deletedAt: now } : {}),
      };
    case "launch-failed":
      return { state: "failed", lastError: event.reason, exited: true, exitedAt: now };
    case "pane-died":
      return {
        state: isTerminal(row.state) ? row.state : "failed",
        ...(isTerminal(row.state) ? {} : { lastError: event.reason }),
        exited: true,
        exitCode: event.code,
        exitedAt: now,
        settledAt: now,
      };
    case "start-abandoned":
      return {
        state: "failed",
        lastError: event.reason,
        exited: true,
        exitedAt: now,
        settledAt: now,
        paneCapturedAt: now,
      };
  }
}

/** Whether a transition leaves a failure the human must hear about (it was not failed before). */
export function failedBy(row: Pick<LifecycleRow, "state">, patch: LifecyclePatch): boolean {
  return patch.state === "failed" && row.state !== "failed";
}
