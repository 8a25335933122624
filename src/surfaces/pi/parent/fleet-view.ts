// The fleet dashboard inside pi (F8, `/docket fleet`): every worker with state, liveness, kind, task, age, version,
// open questions, items and the host it runs on (`@name`); Enter opens its card, `p` peeks at its pane, `t` tells it
// something.

import { matchesKey, type Component, type TUI } from "@mariozechner/pi-tui";
import type { FleetEntry } from "../../../engine/workers/fleet-board.js";
import { GLYPH } from "./dock.js";
import { formatWorkerCost } from "../../../domain/workers/spend.js";
import { fit, safe, type Paint } from "./paint.js";
import { isClose, ScrollBox } from "./scroll-box.js";

export type FleetIntent =
  | { kind: "close" }
  | { kind: "card"; worker: string }
  | { kind: "tell"; worker: string }
  | { kind: "all"; all: boolean };

export interface FleetState {
  selected: number;
  all: boolean;
  /** The worker whose pane is shown under the table, with what was captured (not kept when the dashboard reopens). */
  peek?: { worker: string; text: string };
}

export interface FleetView extends Component {
  /** New rows from the ledger (the dashboard stays open while the fleet changes). */
  update(rows: FleetEntry[]): void;
  state(): FleetState;
  dispose?(): void;
}

const STATE_COLOR: Record<string, "success" | "error" | "warning" | "accent" | "muted"> = {
  ready: "success",
  failed: "error",
  blocked: "warning",
  stuck: "warning",
  needs_input: "warning",
  stale: "warning",
  thinking: "accent",
  revising: "accent",
};

const COLUMNS = "  worker  state          live     kind          age    ver   cost     ?   items";

/** One worker as a table row; the frame cuts the task to the overlay's width. */
export function fleetRow(r: FleetEntry, paint: Paint): string {
  const state = `${GLYPH[r.state] ?? "·"} ${r.state.replace("_", " ")}`.padEnd(14);
  const fixed = `${r.worker.padEnd(6)}  ${paint.fg(STATE_COLOR[r.state] ?? "muted", state)} ${r.liveness.padEnd(8)} ${fit(safe(r.contained ? `${r.kind}▣` : r.kind), 13)} ${r.age.padEnd(6)} ${(r.version ? `v${r.version}` : "—").padEnd(5)} ${fleetCost(r.spend).padEnd(8)} ${String(r.questions || "").padEnd(3)} ${fit(safe(r.items.join(",")), 8)}`;
  const host =
    r.host !== undefined
      ? `${paint.fg("accent", `@${safe(r.host)}`)}${r.hostReachable === false ? paint.fg("warning", " (unreachable)") : ""} `
      : "";
  // Why it shows that state (a failure's cause, its agent's words, the silence, a refusal), before its task.
  const why = r.reason ? `${paint.fg(STATE_COLOR[r.state] ?? "warning", safe(r.reason.replace(/\s+/g, " ")))} · ` : "";
  return `${fixed} ${host}${why}${safe(r.task.replace(/\s+/g, " ").trim())}`;
}

/** The cost column: `$0.52`, `≥$0.12`, `unknown` (no price for its model, or an agent that keeps no records). */
const fleetCost = (spend: FleetEntry["spend"]): string => formatWorkerCost(spend);

export function createFleetView(
  tui: TUI,
  paint: Paint,
  input: { rows: FleetEntry[]; state: FleetState; peek: (worker: string) => string },
  done: (intent: FleetIntent) => void,
): FleetView {
  let rows = input.rows;
  const st: FleetState = { ...input.state, selected: Math.min(input.state.selected, Math.max(0, rows.length - 1)) };
  const chosen = () => rows[st.selected];
  const box: ScrollBox = new ScrollBox(
    tui,
    paint,
    {
      title: () =>
        `${paint.fg("accent", "docket · fleet")} · ${rows.length} worker${rows.length === 1 ? "" : "s"} · ${st.all ? "all projects, settled too" : "this project, unsettled"}`,
      head: () => [paint.fg("muted", `${COLUMNS.padEnd(COLUMNS.length + 1)}task`)],
      body: () =>
        rows.length === 0
          ? [
              paint.fg(
                "muted",
                st.all
                  ? "no workers"
                  : "no unsettled workers in this project · tab shows all · /docket spawn <task> starts one",
              ),
            ]
          : rows.map(
              (r, i) =>
                `${i === st.selected ? paint.fg("accent", "▸") : " "} ${i === st.selected ? paint.bold(fleetRow(r, paint)) : fleetRow(r, paint)}`,
            ),
      tail: () =>
        st.peek
          ? [
              paint.fg("accent", `peek · ${st.peek.worker}`),
              ...st.peek.text
                .split("\n")
                .slice(-12)
                .map((l) => paint.fg("dim", safe(l))),
            ]
          : [],
      legend: () => [
        "j/k move",
        "enter card",
        "p peek",
        "t tell",
        `tab ${st.all ? "this project" : "all"}`,
        "esc close",
      ],
    },
    (data) => {
      const w = chosen();
      if (isClose(data)) {
        if (st.peek)
          st.peek = undefined; // Esc closes the peek first
        else done({ kind: "close" });
      } else if (matchesKey(data, "j") || matchesKey(data, "down")) select(st.selected + 1);
      else if (matchesKey(data, "k") || matchesKey(data, "up")) select(st.selected - 1);
      else if (matchesKey(data, "tab")) done({ kind: "all", all: !st.all });
      else if (!w) return matchesKey(data, "enter") || matchesKey(data, "p") || matchesKey(data, "t");
      else if (matchesKey(data, "enter")) done({ kind: "card", worker: w.worker });
      else if (matchesKey(data, "t")) done({ kind: "tell", worker: w.worker });
      else if (matchesKey(data, "p"))
        st.peek = st.peek?.worker === w.worker ? undefined : { worker: w.worker, text: input.peek(w.worker) };
      else return false;
      tui.requestRender();
      return true;
    },
  );
  const select = (i: number) => {
    if (rows.length === 0) return;
    const next = Math.min(Math.max(0, i), rows.length - 1);
    if (next !== st.selected) st.peek = undefined; // a peek belongs to the row it was taken on
    st.selected = next;
    box.reveal(st.selected);
    box.invalidate();
  };
  return Object.assign(box, {
    update(next: FleetEntry[]) {
      const keep = chosen()?.worker;
      rows = next;
      const at = keep ? rows.findIndex((r) => r.worker === keep) : -1;
      st.selected = at >= 0 ? at : Math.min(st.selected, Math.max(0, rows.length - 1));
      box.invalidate();
      tui.requestRender();
    },
    state: () => ({ ...st }),
  });
}
