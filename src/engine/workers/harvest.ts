// Dead-pane harvest: the last 200 lines of a finished worker's pane go to pane-tail.txt, then its window is killed.
// Once per launch (pane_captured_at); a pane still alive is left alone — the human may still be talking to it.
// A start that died before it had a window, and a pane that died without its wrapper reporting (a sandbox that failed
// at launch, a kill -9), are reconciled here too: marked failed with why, so nothing waits on them.

import { placeOf } from "../places/place.js";
import type { Worker } from "../../domain/workers/worker.js";
import { WORKER_FILES, writeWorkerFile } from "../../files/workers/worker-files.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import { failedBy, transition } from "../../domain/workers/lifecycle.js";
import { deadPaneReason, readDeadPane } from "../../domain/workers/evidence.js";
import {
  applyLifecycle,
  getWorker,
  lifecycleRowOf,
  paneCaptureOf,
  updateWorker,
} from "../../ledger/workers/workers.js";
import { paneFromMap, type PaneMap, type PaneState, type Tmux } from "../../substrate/tmux.js";
import type { EngineContext } from "../context.js";
import { isProcessAlive } from "../../substrate/process.js";
import { isStalled } from "./fleet.js";

export const HARVEST_LINES = 200;

/** Collapses runs of blank lines and trims the tail, so the file holds what was on screen. */
export function formatPaneTail(text: string): string {
  return `${text
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\n+$/g, "")}\n`;
}

export type HarvestOutcome = "harvested" | "window-gone" | "alive" | "skipped";

export function harvestPane(
  ctx: EngineContext,
  row: Worker,
  options: { tmux?: Tmux; pane?: PaneState } = {},
): HarvestOutcome {
  if (row.paneCapturedAt !== null || ctx.readOnly) return "skipped"; // a read-only home keeps panes for a writer to harvest
  const tmux = options.tmux ?? placeOf(ctx, row).tmux();
  const state = row.paneId === null ? "missing" : (options.pane ?? tmux.paneState(row.paneId, row.id));
  if (state === "alive") return "alive";
  let outcome: HarvestOutcome = "window-gone";
  if (state === "dead" && row.paneId !== null) {
    writeWorkerFile(ctx.home, row.id, WORKER_FILES.paneTail, formatPaneTail(tmux.capture(row.paneId, HARVEST_LINES)));
    if (row.windowId) tmux.killWindow(row.windowId);
    outcome = "harvested";
  }
  ctx.commands.run("worker.harvest", { worker: row.id, generation: row.generation }, (tx) => {
    const now = paneCaptureOf(tx.db, row.id);
    if (now?.generation === row.generation && now.paneCapturedAt === null)
      updateWorker(tx, row.id, { paneCapturedAt: tx.now });
  });
  return outcome;
}

/** Whether a row still needs its pane harvested (finished, not captured yet). */
export const awaitsHarvest = (row: Worker): boolean =>
  row.paneCapturedAt === null && (row.exited || row.state === "failed" || row.state === "ended");

/**
 * Harvests every finished worker whose pane has not been captured, with one tmux listing per server: this machine's,
 * and each host's (`hosts`, from the same listing `ls` makes; a host that did not answer is harvested next time).
 */
export function harvestFinished(
  ctx: EngineContext,
  rows: readonly Worker[],
  panes: PaneMap | undefined,
  hosts?: ReadonlyMap<string, PaneMap | undefined>,
): number {
  if (ctx.readOnly) return 0; // nothing can be recorded: next time
  let n = 0;
  for (const row of rows) {
    const running = !row.exited && row.paneId !== null && row.windowId !== null;
    if (!running && !awaitsHarvest(row)) continue;
    const place = placeOf(ctx, row);
    const listing = place.listingIn(panes, hosts);
    if (listing === undefined) continue; // tmux could not be asked (or the host did not answer): next time
    const pane = row.paneId === null ? "missing" : paneFromMap(listing, row.paneId, row.id);
    if (pane === "alive") continue;
    const tmux = place.tmux();
    let gone: PaneState | undefined = pane;
    if (running) {
      gone = failDeadPane(ctx, row, tmux, pane);
      if (gone === undefined) continue;
      n++;
    }
    if (harvestPane(ctx, row, { tmux, pane: gone }) === "harvested") n++;
  }
  return n;
}

/**
 * A running worker whose pane died (or whose window went) with no exit recorded: its wrapper never reported, so the
 * pane is the evidence. Recorded as failed with its exit and last lines; returns the pane's state, undefined when it
 * was not gone after all (or its wrapper reported meanwhile).
 */
function failDeadPane(ctx: EngineContext, row: Worker, tmux: Tmux, listed: PaneState): PaneState | undefined {
  // A pane missing from the listing may belong to a launch recorded after it was taken: asked again, alone.
  const pane = listed === "missing" ? tmux.paneState(row.paneId!, row.id) : listed;
  if (pane === "alive") return undefined;
  // A window missing from a server without the worker's session at all may be another server's (a different
  // DOCKET_TMUX_SOCKET), or a server that is gone: liveness says `gone`, and no failure is recorded from here.
  if (pane === "missing" && (row.tmuxSession === null || !tmux.hasSession(row.tmuxSession))) return undefined;
  const dead = pane === "dead" ? readDeadPane(tmux.capture(row.paneId!, HARVEST_LINES)) : undefined;
  const reason = deadPaneReason(dead ?? "window-gone");
  const failed = ctx.commands.run("worker.pane-died", { worker: row.id, generation: row.generation }, (tx) => {
    const now = getWorker(tx.db, row.id);
    // Re-checked under the write lock: its wrapper may have reported the exit meanwhile, or it was respawned.
    if (!now || now.generation !== row.generation || now.exited) return false;
    const next = transition(lifecycleRowOf(now), { kind: "pane-died", reason, code: dead?.code ?? null }, tx.now);
    applyLifecycle(tx, row.id, next);
    if (failedBy(now, next)) insertNotification(tx, { kind: "failed", worker: row.id, body: reason });
    return true;
  }).result;
  return failed ? pane : undefined;
}

/** Marks failed every start that will never finish (its spawn died before recording a window); returns how many. */
export function reconcileStalledStarts(ctx: EngineContext, rows: readonly Worker[]): number {
  const nowMs = ctx.clock.nowMs();
  let n = 0;
  for (const row of rows) {
    if (!isStalled(row, nowMs)) continue;
    const reconciled = ctx.commands.run(
      "worker.start-abandoned",
      { worker: row.id, generation: row.generation },
      (tx) => {
        const now = getWorker(tx.db, row.id);
        // Re-checked under the write lock: the start may have finished (or moved on) since the row was read.
        if (!now || now.generation !== row.generation || now.updatedAt !== row.updatedAt || !isStalled(now, nowMs))
          return false;
        const quiet = `no window ${Math.round((nowMs - Date.parse(row.updatedAt)) / 1000)} s after it began`;
        const error = `the start of ${row.id} never finished: ${quiet}${now.pid !== null && isProcessAlive(now.pid) ? "" : ", and the process starting it is gone"}`;
        applyLifecycle(tx, row.id, transition(lifecycleRowOf(now), { kind: "start-abandoned", reason: error }, tx.now));
        insertNotification(tx, { kind: "failed", worker: row.id, body: error });
        return true;
      },
    ).result;
    if (reconciled) n++;
  }
  return n;
}
