// Renders the dock: one quiet line per unsettled worker of this project, and a footer summary. Pure formatting.
// States and liveness come already derived (the same rules as `docket ls`); ages are since the worker started.

import { formatAge } from "../../../domain/clock.js";
import type { DockRow, ParentNotification } from "../../../engine/talk/parent-feed.js";

const GLYPH: Record<string, string> = {
  starting: "◌",
  thinking: "●",
  idle: "○",
  stale: "◍",
  needs_input: "?",
  consulting: "⋯",
  ready: "✓",
  failed: "✗",
  ended: "·",
  reviewed: "·",
};

const MAX_TASK = 48;

/** pi shows at most this many widget lines (InteractiveMode.MAX_WIDGET_LINES in 0.73.1) and truncates the rest. */
export const DOCK_MAX_LINES = 10;

/** Who needs the human first when not every worker fits: lower ranks are shown before higher ones. */
const ATTENTION_RANK: Record<string, number> = { needs_input: 0, failed: 1, ready: 2, stale: 3, consulting: 4, thinking: 5, idle: 6, starting: 7 };

/**
 * One line per worker in label order. When they do not all fit in `maxLines`, the workers that need the human
 * (asking, failed, ready, stale) are kept and the rest fold into one "… N more" line.
 */
export function formatDock(rows: readonly DockRow[], nowMs: number, maxLines = DOCK_MAX_LINES): string[] {
  if (maxLines <= 0) return [];
  let shown: readonly DockRow[] = rows;
  let folded: DockRow[] = [];
  if (rows.length > maxLines) {
    const rank = (r: DockRow) => ATTENTION_RANK[r.state] ?? 9;
    const keep = new Set([...rows].map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i).slice(0, maxLines - 1).map((x) => x.r));
    shown = rows.filter((r) => keep.has(r));
    folded = rows.filter((r) => !keep.has(r));
  }
  const lines = shown.map((r) => formatDockLine(r, nowMs));
  if (folded.length > 0) lines.push(`… ${folded.length} more: ${summarize(folded).join(" · ")} · /docket ls`);
  return lines;
}

function formatDockLine(r: DockRow, nowMs: number): string {
  const gone = r.liveness === "gone" && !["ready", "failed", "ended", "reviewed"].includes(r.state) ? " (gone)" : "";
  const q = r.questions > 0 ? ` · ${r.questions} question${r.questions === 1 ? "" : "s"}` : "";
  const v = r.version !== null ? ` · v${r.version}` : "";
  const o = r.overlapsWith ? ` · overlaps ${r.overlapsWith}` : "";
  const b = r.baseMoved > 0 ? ` · base moved · ${r.baseMoved} file${r.baseMoved === 1 ? "" : "s"}` : "";
  const n = r.shared > 0 ? ` · ${r.shared} shared` : "";
  const task = oneLine(r.task);
  const shortTask = task.length > MAX_TASK ? `${task.slice(0, MAX_TASK - 1)}…` : task;
  return `${GLYPH[r.state] ?? "·"} ${r.worker}·${r.kind} ${r.state.replace("_", " ")}${gone} · ${shortTask}${q}${v}${o}${b}${n} · ${formatAge(r.createdAt, nowMs)}`;
}

/** Counts by what the human cares about: waiting, failed, ready, running (the footer and the fold line). */
function summarize(rows: readonly DockRow[]): string[] {
  const count = (states: string[]) => rows.filter((r) => states.includes(r.state)).length;
  return (
    [
      [count(["needs_input"]), "waiting"],
      [count(["failed"]), "failed"],
      [count(["ready"]), "ready"],
      [count(["consulting"]), "consulting"],
      [count(["starting", "thinking", "idle", "stale"]), "running"],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, label]) => `${n} ${label}`);
}

export function formatDockStatus(rows: readonly DockRow[]): string | undefined {
  if (rows.length === 0) return undefined;
  const parts = summarize(rows);
  return `docket · ${parts.length > 0 ? parts.join(" · ") : "all settled"}`;
}

/** One line under the dock while Use → Parent chips wait for the human's next prompt. */
export function formatChipLine(chips: readonly { id: string; ref: string }[]): string[] {
  if (chips.length === 0) return [];
  const drop = chips.length === 1 ? `/docket chips drop ${chips[0]!.id}` : "/docket chips";
  return [`⧉ attached to your next prompt: ${chips.map((c) => c.ref).join(", ")} · ${drop}`];
}

const HEADS: Record<string, string> = {
  question: "asks", blocked: "is blocked", ready: "is ready for review", failed: "failed", outcome: "reported", note: "shared",
  "consult-answered": "consulted · answered by the parent agent",
};

export function formatNotification(n: Pick<ParentNotification, "kind" | "worker" | "item" | "body" | "forHuman">): string {
  const who = [n.worker, n.item].filter(Boolean).join(" · ");
  const lines = [`docket · ${who} ${HEADS[n.kind] ?? n.kind}: ${n.body}`, ...n.forHuman.map((l) => `  ${l}`)];
  return lines.join("\n");
}

/**
 * The level a batch of worker notifications is shown at: a failure makes it an error, anything else a warning.
 * Never "info": pi's interactive mode lets the next info message replace the previous one, and a worker's
 * notification must neither vanish nor wipe the output of the human's last /docket command.
 */
export function notificationLevel(kinds: readonly string[]): "warning" | "error" {
  return kinds.includes("failed") ? "error" : "warning";
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
