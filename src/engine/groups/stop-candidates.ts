// Stopping candidates of a group (another one was chosen, or the group's budget was reached): the ledger records each
// as exited inside the deciding command; their windows close after commit, through the outbox, safe to repeat.

import { transition } from "../../domain/workers/lifecycle.js";
import type { Tx } from "../../ledger/core/runner.js";
import { recordLaunchExit } from "../../ledger/workers/launches.js";
import { applyLifecycle, getWorker, lifecycleRowOf } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { placeOf } from "../places/place.js";

/** The outbox effect that closes stopped candidates' windows after the command commits. */
const STOP_CANDIDATES_EFFECT = "group.stop";

/** The exit code recorded for a candidate Docket stopped (128 + SIGTERM). */
const CANDIDATE_STOP_CODE = 143;

/** Inside the command: records each running one as exited with `why`; returns those stopped, their windows queued. */
export function stopInLedger(tx: Tx, workers: readonly string[], why: string): string[] {
  const stopped: string[] = [];
  for (const id of workers) {
    const row = getWorker(tx.db, id);
    if (!row || row.exited) continue;
    recordLaunchExit(tx, id, row.generation, undefined, CANDIDATE_STOP_CODE);
    applyLifecycle(tx, id, {
      ...transition(lifecycleRowOf(row), { kind: "exited", code: CANDIDATE_STOP_CODE }, tx.now),
      lastError: why,
    });
    stopped.push(id);
  }
  if (stopped.length > 0) tx.emit(STOP_CANDIDATES_EFFECT, { workers: stopped });
  return stopped;
}

/**
 * Closes the stopped candidates' windows; a window already gone is what was wanted (idempotent). Only a row the ledger
 * still says exited: a candidate respawned since runs a new generation that no repeat of this effect may close.
 */
export function stopCandidates(ctx: EngineContext, workers: readonly string[]): void {
  for (const id of workers) {
    const row = getWorker(ctx.db, id);
    if (!row?.windowId || !row.exited) continue;
    placeOf(ctx, row).tmux().killWindow(row.windowId);
  }
}
