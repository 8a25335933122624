// The fleet cap: how many workers may be live at once (config maxActive), counted over live workers only.
// Checked inside the spawn command, so two spawns racing for the last place cannot both win; a start that died
// part-way (no window, its spawner gone) is not live, so it never holds a place (issue 19).

import type { Db } from "../../ledger/core/open.js";
import type { WorkerRow } from "../../ledger/workers/workers.js";
import { refusal } from "../../domain/errors.js";
import { isStalledStart } from "../../domain/workers/lifecycle.js";
import { isProcessAlive } from "../../substrate/process.js";
import { paneFromMap, type PaneMap } from "../../substrate/tmux.js";

type StartColumns = Pick<WorkerRow, "state" | "exited" | "window_id" | "updated_at" | "pid">;

/** A start that will never finish: its row is `starting` without a window and the process starting it is gone. */
export function isStalled(row: StartColumns, nowMs: number): boolean {
  return isStalledStart(
    { state: row.state, exited: row.exited === 1, windowId: row.window_id, updatedAt: row.updated_at, spawnerAlive: row.pid !== null && isProcessAlive(row.pid) },
    nowMs,
  );
}

/** Rows whose process may run and whose pane (when tmux could be asked) is alive, or that are still being started. */
export function countLiveWorkers(db: Db, panes: PaneMap | undefined, nowMs: number): number {
  const rows = db
    .prepare(
      "SELECT id, pane_id, state, exited, window_id, updated_at, pid FROM workers WHERE deleted_at IS NULL AND exited = 0 AND pane_captured_at IS NULL AND state NOT IN ('failed','ended')",
    )
    .all() as (StartColumns & { id: string; pane_id: string | null })[];
  return rows.filter((r) => (r.pane_id === null ? !isStalled(r, nowMs) : panes === undefined || paneFromMap(panes, r.pane_id, r.id) === "alive")).length;
}

export function assertFleetRoom(db: Db, maxActive: number, panes: PaneMap | undefined, nowMs: number): void {
  if (maxActive <= 0) return;
  const live = countLiveWorkers(db, panes, nowMs);
  if (live >= maxActive) {
    throw refusal(
      "fleet-cap",
      `fleet cap reached: ${live} live worker${live === 1 ? "" : "s"} (maxActive ${maxActive}); nothing was started`,
      "delete or finish a worker first (docket ls), or raise maxActive in your user config",
    );
  }
}
