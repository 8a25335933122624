// The fleet cap: how many workers may be live at once (config maxActive), counted over live, unsettled workers only —
// the ones `ls --all` lists: a worker whose version was promoted or rejected holds no place, though its pane may idle on.
// Checked inside the spawn command, so two spawns racing for the last place cannot both win; a start that died
// part-way (no window, its spawner gone) is not live, so it never holds a place.

import type { Worker } from "../../domain/workers/worker.js";
import type { Db } from "../../ledger/core/open.js";
import { possiblyLiveWorkers } from "../../ledger/workers/fleet-reads.js";

import { refusal } from "../../domain/errors.js";
import { isSettled, isStalledStart } from "../../domain/workers/lifecycle.js";
import { isProcessAlive } from "../../substrate/process.js";
import { paneFromMap, type PaneMap, type Tmux } from "../../substrate/tmux.js";

type StartColumns = Pick<Worker, "state" | "exited" | "windowId" | "updatedAt" | "pid">;

/** A start that will never finish: its row is `starting` without a window and the process starting it is gone. */
export function isStalled(row: StartColumns, nowMs: number): boolean {
  return isStalledStart(
    {
      state: row.state,
      exited: row.exited,
      windowId: row.windowId,
      updatedAt: row.updatedAt,
      spawnerAlive: row.pid !== null && isProcessAlive(row.pid),
    },
    nowMs,
  );
}

/** One tmux listing and when it was taken: a window recorded after that was made by a concurrent spawn, and is live. */
export interface PaneSnapshot {
  panes: PaneMap | undefined;
  takenAt: string;
  /** Each host's listing (undefined: it did not answer); a host not listed here counts its workers as live. */
  hosts?: ReadonlyMap<string, PaneMap | undefined>;
}

/**
 * This machine's listing, and one of each host that a possibly-live worker runs on, so the cap counts workers on
 * hosts as it counts local ones (`listHost` asks a host; undefined when it does not answer).
 */
export function takePaneSnapshot(
  tmux: Tmux,
  now: string,
  hosts?: { db: Db; listHost: (host: string) => PaneMap | undefined },
): PaneSnapshot {
  const snapshot: PaneSnapshot = { takenAt: now, panes: tmux.listPanes() };
  if (!hosts) return snapshot;
  const names = new Set(
    possiblyLiveWorkers(hosts.db)
      .map((r) => r.host)
      .filter((h): h is string => h !== null),
  );
  return { ...snapshot, hosts: new Map([...names].map((h) => [h, hosts.listHost(h)])) };
}

/** Unsettled rows whose process may run and whose pane (when tmux could be asked) is alive, or that are still starting. */
export function liveWorkers(db: Db, snapshot: PaneSnapshot, nowMs: number): string[] {
  const { takenAt } = snapshot;
  return possiblyLiveWorkers(db)
    .filter((r) => {
      if (isSettled(r)) return false;
      const panes = r.host === null ? snapshot.panes : snapshot.hosts?.get(r.host);
      if (r.paneId === null)
        return !isStalledStart({ ...r, spawnerAlive: r.pid !== null && isProcessAlive(r.pid) }, nowMs);
      return (
        panes === undefined ||
        paneFromMap(panes, r.paneId, r.id) === "alive" ||
        (!panes.has(r.paneId) && r.updatedAt >= takenAt)
      );
    })
    .map((r) => r.id);
}

export const countLiveWorkers = (db: Db, snapshot: PaneSnapshot, nowMs: number): number =>
  liveWorkers(db, snapshot, nowMs).length;

/** How many of the workers holding the places the refusal names. */
const NAMED = 10;

export function assertFleetRoom(db: Db, maxActive: number, snapshot: PaneSnapshot, nowMs: number): void {
  if (maxActive <= 0) return;
  const live = liveWorkers(db, snapshot, nowMs);
  if (live.length >= maxActive) {
    const named = live.slice(0, NAMED).join(", ") + (live.length > NAMED ? ` and ${live.length - NAMED} more` : "");
    throw refusal(
      "fleet-cap",
      `fleet cap reached: ${live.length} live worker${live.length === 1 ? "" : "s"} (maxActive ${maxActive}: ${named}); nothing was started`,
      "judge, finish or delete one of them first (`docket ls --all` lists them in every project), or raise maxActive in your user config",
    );
  }
}
