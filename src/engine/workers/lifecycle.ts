// What a worker process says about itself: it exited (wrapper), it is alive (heartbeat), it started or ended a turn.
// Exit is recorded only on its own generation; heartbeats and turns are fenced like every other worker call.

import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { failedBy, transition, type PersistedState } from "../../domain/workers/lifecycle.js";
import { applyLifecycle, getWorker, lifecycleRowOf, runTokenMatches } from "../../ledger/workers/workers.js";
import { runFenced } from "../protocol/fenced.js";
import { recordLaunchExit } from "../../ledger/workers/launches.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import type { EngineContext } from "../context.js";
import { idempotencyKey, optionalKey } from "../../domain/idempotency.js";
import { pruneKeysBefore } from "../../ledger/core/idempotency-prune.js";
import type { Tx } from "../../ledger/core/runner.js";
import { checkCallId } from "../protocol/protocol.js";

export interface ExitResult {
  worker: string;
  generation: number;
  /** The exit was written on this generation's launch row. */
  recorded: boolean;
  /** The exit settled the worker row (only the current generation's exit does). */
  settled: boolean;
  state?: PersistedState;
}

/**
 * `docket worker exited --code N`: the wrapper's last word. A stale generation (or a mismatched run token)
 * records nothing on the current row; the current generation's exit settles the row.
 */
export function recordWorkerExit(ctx: EngineContext, who: WorkerIdentity, code: number): ExitResult {
  return ctx.commands.run("worker.exited", { who, code }, (tx) => {
    const row = getWorker(tx.db, who.worker);
    if (!row) return { worker: who.worker, generation: who.generation, recorded: false, settled: false };
    const launchRecorded = recordLaunchExit(tx, who.worker, who.generation, who.runToken, code);
    const current = row.generation === who.generation && runTokenMatches(row, who.runToken);
    if (!current || row.exited)
      return { worker: who.worker, generation: who.generation, recorded: launchRecorded, settled: false };
    const next = transition(lifecycleRowOf(row), { kind: "exited", code }, tx.now);
    applyLifecycle(tx, row.id, next);
    // A process that died before reporting is a failure the human must hear about.
    if (failedBy(row, next)) {
      insertNotification(tx, {
        kind: "failed",
        worker: row.id,
        body: next.lastError ?? `exited with code ${code} before reporting`,
      });
    }
    return {
      worker: who.worker,
      generation: who.generation,
      recorded: launchRecorded,
      settled: true,
      state: next.state,
    };
  }).result;
}

export interface HeartbeatInput {
  model?: string | null;
  thinking?: string | null;
  pid?: number | null;
}

/** A fenced heartbeat: liveness, plus the model and thinking actually in effect. */
export function recordHeartbeat(
  ctx: EngineContext,
  who: WorkerIdentity,
  beat: HeartbeatInput = {},
  callId?: string,
): { worker: string; state: PersistedState } {
  return runFenced(
    ctx,
    { command: "worker.heartbeat", who, request: { who, beat }, key: periodicKey("heartbeat", who, callId) },
    (tx, row) => {
      forgetPeriodicKeys(tx, who.worker);
      const next = transition(lifecycleRowOf(row), { kind: "heartbeat" }, tx.now);
      const also: Parameters<typeof applyLifecycle>[3] = {};
      if (beat.model) also.modelInEffect = beat.model;
      if (beat.thinking) also.thinkingInEffect = beat.thinking;
      if (beat.pid) also.pid = beat.pid;
      applyLifecycle(tx, row.id, next, also);
      return { worker: row.id, state: next.state ?? row.state };
    },
  );
}

/** How long a periodic call's key is kept: far beyond its client's retries (DOOR_PATIENCE_MS, 20 s), then forgotten. */
export const PERIODIC_KEY_MS = 10 * 60_000;

/** A heartbeat's, turn's or touches batch's key: the client's call id, so its retry after a door died lands once. */
export function periodicKey(
  tool: "heartbeat" | "turn" | "touches",
  who: WorkerIdentity,
  callId: string | undefined,
): string | undefined {
  return optionalKey({ tool, worker: who.worker, callId: callId === undefined ? undefined : checkCallId(callId) });
}

/** Run with each heartbeat (every 15 s): the worker's own periodic keys stay a few dozen rows, never a growing table. */
function forgetPeriodicKeys(tx: Tx, worker: string): void {
  const before = new Date(Date.parse(tx.now) - PERIODIC_KEY_MS).toISOString();
  for (const tool of ["heartbeat", "turn", "touches"] as const)
    pruneKeysBefore(tx, idempotencyKey({ tool, worker, callId: "" }), before);
}

/** pi turn boundaries: agent_start → active (from starting/idle); agent_end without a protocol call → idle. */
export function recordTurn(
  ctx: EngineContext,
  who: WorkerIdentity,
  event: "start" | "end",
  callId?: string,
): PersistedState {
  return runFenced(
    ctx,
    { command: "worker.turn", who, request: { who, event }, key: periodicKey("turn", who, callId) },
    (tx, row) => {
      const next = transition(lifecycleRowOf(row), { kind: "turn", edge: event }, tx.now);
      applyLifecycle(tx, row.id, next);
      return next.state ?? row.state;
    },
  );
}
