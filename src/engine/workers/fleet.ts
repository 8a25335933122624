// The fleet cap: how many workers may be live at once (config maxActive), counted over live workers only.
// Checked inside the spawn command, so two spawns racing for the last place cannot both win.

import type { Db } from "../../ledger/core/open.js";
import { refusal } from "../../domain/errors.js";
import { paneFromMap, type PaneMap } from "../../substrate/tmux.js";

/** Rows whose process may run and whose pane (when tmux could be asked) is alive or not launched yet. */
export function countLiveWorkers(db: Db, panes: PaneMap | undefined): number {
  const rows = db
    .prepare("SELECT id, pane_id FROM workers WHERE deleted_at IS NULL AND exited = 0 AND pane_captured_at IS NULL AND state NOT IN ('failed','ended')")
    .all() as { id: string; pane_id: string | null }[];
  return rows.filter((r) => r.pane_id === null || panes === undefined || paneFromMap(panes, r.pane_id, r.id) === "alive").length;
}

export function assertFleetRoom(db: Db, maxActive: number, panes: PaneMap | undefined): void {
  if (maxActive <= 0) return;
  const live = countLiveWorkers(db, panes);
  if (live >= maxActive) {
    throw refusal(
      "fleet-cap",
      `fleet cap reached: ${live} live worker${live === 1 ? "" : "s"} (maxActive ${maxActive}); nothing was started`,
      "delete or finish a worker first (docket ls), or raise maxActive in your user config",
    );
  }
}
