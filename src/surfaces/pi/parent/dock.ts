// Renders the dock: one quiet line per unsettled worker of this project, and a footer summary. Pure formatting.
// States and liveness come already derived (the same rules as `docket ls`); ages are since the worker started.

import { formatAge } from "../../../domain/clock.js";
import { formatWorkerCost, type SpendTotals } from "../../../domain/workers/spend.js";
import type { DockRow, MessageDelivery, ParentNotification } from "../../../engine/talk/parent-feed.js";
import { safe } from "./paint.js";

export const GLYPH: Record<string, string> = {
  starting: "◌",
  thinking: "●",
  idle: "○",
  stale: "◍",
  needs_input: "?",
  consulting: "⋯",
  ready: "✓",
  revising: "↻",
  failed: "✗",
  blocked: "⊘",
  stuck: "⧗",
  ended: "·",
  reviewed: "·",
};

const MAX_TASK = 48;
const MAX_REASON = 60;

/** pi shows at most this many widget lines (InteractiveMode.MAX_WIDGET_LINES in 0.73.1) and truncates the rest. */
export const DOCK_MAX_LINES = 10;

/** Who needs the human first when not every worker fits: lower ranks are shown before higher ones. */
const ATTENTION_RANK: Record<string, number> = {
  needs_input: 0,
  failed: 1,
  blocked: 1,
  stuck: 1,
  ready: 2,
  stale: 3,
  consulting: 4,
  revising: 5,
  thinking: 5,
  idle: 6,
  starting: 7,
};

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
    const keep = new Set(
      [...rows]
        .map((r, i) => ({ r, i }))
        .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
        .slice(0, maxLines - 1)
        .map((x) => x.r),
    );
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
  const box = `${r.contained ? "·contained" : ""}${r.host !== undefined ? `@${safe(r.host)}` : ""}`;
  const c = r.spend === undefined ? "" : ` · ${dockCost(r.spend)}`;
  // Why it is blocked, stuck or failed (the agent's words, the silence, the cause), or a call Docket refused.
  const why = r.reason ? ` · ${oneLine(r.reason).slice(0, MAX_REASON)}${r.reason.length > MAX_REASON ? "…" : ""}` : "";
  return `${GLYPH[r.state] ?? "·"} ${r.worker}·${r.kind}${box} ${r.state.replace("_", " ")}${gone}${why} · ${shortTask}${q}${v}${o}${b}${n}${c} · ${formatAge(r.createdAt, nowMs)}`;
}

/** A worker's cost in the dock: the one rendering (`$0.52`, `≥$0.12`, `unknown`), labelled where it is a bare word. */
export function dockCost(spend: SpendTotals | null): string {
  const said = formatWorkerCost(spend);
  return said === "unknown" ? "cost unknown" : said;
}

/** Counts by what the human cares about: waiting, failed, ready, sent back, running (the footer and the fold line). */
function summarize(rows: readonly DockRow[]): string[] {
  const count = (states: string[]) => rows.filter((r) => states.includes(r.state)).length;
  return (
    [
      [count(["needs_input"]), "waiting"],
      [count(["failed"]), "failed"],
      [count(["blocked"]), "blocked"],
      [count(["stuck"]), "stuck"],
      [count(["ready"]), "ready"],
      [count(["revising"]), "revising"],
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
  question: "asks",
  escalated: "asks",
  blocked: "is blocked",
  stuck: "is stuck",
  refused: "had a call refused",
  ready: "is ready for review",
  failed: "failed",
  outcome: "reported",
  note: "shared",
  budget: "budget",
  "consult-answered": "consulted · answered by your pi session's model",
};

export function formatNotification(
  n: Pick<ParentNotification, "kind" | "worker" | "item" | "body" | "forHuman">,
): string {
  const who = [n.worker, n.item].filter(Boolean).join(" · ");
  const lines = [`docket · ${who} ${HEADS[n.kind] ?? n.kind}: ${n.body}`, ...n.forHuman.map((l) => `  ${l}`)];
  return lines.join("\n");
}

/**
 * The level a worker notification is shown at: a failure is an error, a worker waiting on the human (a question, a
 * blocked item) a warning, news (a version ready for review, an item's outcome) information.
 */
export function notificationLevel(kind: string): "info" | "warning" | "error" {
  if (kind === "failed") return "error";
  return ["question", "escalated", "blocked", "stuck", "refused", "budget"].includes(kind) ? "warning" : "info";
}

/** Notifications that arrived together, one message per level (so news is not labelled a warning), news first. */
export function notificationBatches(
  notices: readonly ParentNotification[],
): { level: "info" | "warning" | "error"; text: string }[] {
  return (["info", "warning", "error"] as const)
    .map((level) => ({
      level,
      text: notices
        .filter((n) => notificationLevel(n.kind) === level)
        .map(formatNotification)
        .join("\n"),
    }))
    .filter((b) => b.text !== "");
}

/** Notices that were settled before this parent saw them (a version judged, a question answered, a worker deleted). */
export function formatFoldedNotices(count: number): string {
  return `docket · ${count} older notice${count === 1 ? "" : "s"} (already judged, answered or deleted) not shown · /docket attention lists them`;
}

/** A read message stays in the dock this long after this parent saw it read, so the human sees it arrive; then it goes. */
export const READ_SHOWN_MS = 60_000;
const MAX_DELIVERY_LINES = 3;

/**
 * One line per message the human sent from here that is still on its way, or was read in the last minute.
 * `readSeen`: when this parent first saw each message read (its own clock: a worker's clock may differ).
 */
export function formatDeliveries(
  deliveries: readonly MessageDelivery[],
  nowMs: number,
  readSeen: ReadonlyMap<string, number>,
): string[] {
  const shown = deliveries.filter(
    (d) =>
      d.delivery === "queued" ||
      d.delivery === "delivered" ||
      (d.delivery === "read" && nowMs - (readSeen.get(d.message) ?? nowMs) < READ_SHOWN_MS),
  );
  const lines = shown.slice(-MAX_DELIVERY_LINES).map((d) => {
    const waiting =
      d.delivery === "queued" && d.workerExited
        ? ` · ${d.worker} is not running: docket respawn ${d.worker} delivers it`
        : "";
    return `✉ ${d.message} → ${d.worker} · ${d.delivery === "read" ? "read ✓" : d.delivery}${waiting}`;
  });
  if (shown.length > MAX_DELIVERY_LINES)
    lines.unshift(
      `✉ … ${shown.length - MAX_DELIVERY_LINES} earlier message${shown.length - MAX_DELIVERY_LINES === 1 ? "" : "s"} on their way`,
    );
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
