// The fleet's watcher in the door (the long-lived process while workers live): every few seconds it looks at this
// machine's running workers, so a dead pane, a blocked agent or a stuck worker is recorded with no Docket command run.

import { placeOf } from "../places/place.js";
import { workersOf } from "../../ledger/workers/fleet-reads.js";
import type { EngineContext } from "../context.js";
import { observeWorkers } from "./evidence.js";
import { harvestFinished } from "./harvest.js";

/** How often the door looks: a dead pane is failed well within 10 s even when nobody reads. */
const FLEET_WATCH_MS = 2_000;
/** Screens are read (signatures, changes) every this many looks: one capture per worker costs a tmux process. */
const OBSERVE_EVERY = 3;

/**
 * One look: running workers whose pane died failed (and harvested), the others observed; true when it recorded anything. Workers on
 * hosts are left to reads (a look there costs a round trip).
 */
function watchFleetOnce(ctx: EngineContext, observe = true): boolean {
  // Only running workers: a finished one's pane is harvested by the next read, as before (its window stays till then).
  const rows = workersOf(ctx.db).filter((r) => placeOf(ctx, r).watched && !r.exited && r.windowId !== null);
  if (rows.length === 0) return false;
  const panes = ctx.tmux.listPanes();
  if (panes === undefined) return false; // tmux could not be asked: next time
  const harvested = harvestFinished(ctx, rows, panes) > 0;
  return (observe && observeWorkers(ctx, rows, panes)) || harvested;
}

/** `change`: it recorded something (its own commits do not move its connection's data_version). */
export function startFleetWatch(
  ctx: EngineContext,
  on: { change(): void; error(error: Error): void },
  everyMs = FLEET_WATCH_MS,
): { stop(): void } {
  let busy = false;
  let looks = 0;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    try {
      if (watchFleetOnce(ctx, looks++ % OBSERVE_EVERY === 0)) on.change();
    } catch (error) {
      on.error(error as Error);
    } finally {
      busy = false;
    }
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
