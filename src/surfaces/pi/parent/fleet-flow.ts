// The fleet dashboard's loop: rows from the engine's fleet board, refreshed while open when the ledger changes;
// Enter opens the worker's card, `t` asks for a message and sends it through the inbox, then the dashboard returns.

import type { FleetEntry } from "../../../engine/workers/fleet-board.js";
import { ledgerStamp } from "../../../engine/talk/parent-feed.js";
import { peekWorker, tellWorker } from "../../../engine/talk/tell.js";
import { createFleetView, type FleetIntent, type FleetState, type FleetView } from "./fleet-view.js";
import { refusalText, showOverlay, showRefusal, showResult, type ParentHost } from "./host.js";
import { openVerdict } from "./review-flow.js";
import { groupRows } from "../../shared/group-lines.js";

/** How often an open dashboard checks the ledger's data_version (one pragma read) for changes. */
const LIVE_CHECK_MS = 1_000;
const PEEK_LINES = 12;

let open = false;

export async function openFleet(host: ParentHost, options: { all?: boolean } = {}): Promise<void> {
  if (open) return; // F8 pressed again, or /docket fleet, while it is showing
  open = true;
  try {
    let state: FleetState = { selected: 0, all: options.all ?? false };
    for (;;) {
      let rows: FleetEntry[];
      try {
        rows = await loadRows(host, state.all);
      } catch (error) {
        showRefusal(host, error);
        return;
      }
      let view: FleetView | undefined;
      const intent = await showOverlay<FleetIntent>(host, (tui, paint, done) => {
        view = createFleetView(tui, paint, { rows, state, peek: (worker) => peek(host, worker) }, done);
        return watchWhileOpen(host, view, state.all);
      });
      state = { ...(view?.state() ?? state), peek: undefined };
      if (intent.kind === "close") return;
      if (intent.kind === "all") state = { ...state, all: intent.all, selected: 0, peek: undefined };
      else if (intent.kind === "card") await openVerdict(host, { target: intent.worker });
      else await tell(host, intent.worker);
    }
  } finally {
    open = false;
  }
}

async function loadRows(host: ParentHost, all: boolean): Promise<FleetEntry[]> {
  const { fleetBoard } = await import("../../../engine/workers/fleet-board.js");
  const { groupsOfWorkers } = await import("../../../engine/groups/listing.js");
  // A best-of group's candidates stand together, each task led by its group id.
  return groupRows(fleetBoard(host.engine(), { all }), groupsOfWorkers(host.engine()));
}

/** Reloads the rows when another process commits; the timer ends with the overlay (pi calls `dispose`). */
function watchWhileOpen(host: ParentHost, view: FleetView, all: boolean): FleetView {
  let stamp = ledgerStamp(host.engine());
  const timer = setInterval(() => {
    const now = ledgerStamp(host.engine());
    if (now === stamp) return;
    stamp = now;
    // A failed reload keeps the rows on screen; the next change retries.
    loadRows(host, all).then(
      (rows) => view.update(rows),
      () => undefined,
    );
  }, LIVE_CHECK_MS);
  timer.unref();
  view.dispose = () => clearInterval(timer);
  return view;
}

/** The last lines of a worker's pane (or its harvested tail), as `docket peek` shows them: no model context spent. */
function peek(host: ParentHost, worker: string): string {
  try {
    return peekWorker(host.engine(), worker, PEEK_LINES).text;
  } catch (error) {
    return `cannot peek at ${worker}: ${refusalText(error)}`;
  }
}

async function tell(host: ParentHost, worker: string): Promise<void> {
  const text = (await host.ctx.ui.input(`Tell ${worker} (through its inbox; it reads it on its next turn):`))?.trim();
  if (!text) return;
  try {
    const r = tellWorker(host.engine(), { worker, text });
    showResult(host, [
      `${r.message} ${r.delivery === "delivered" ? "pasted into the pane of" : "queued for"} ${worker}${r.waiting ? ` (not running: it waits in the inbox until docket respawn ${worker})` : ""}`,
    ]);
    host.refresh();
  } catch (error) {
    showRefusal(host, error);
  }
}
