// Renders the dock: one quiet line per worker of this project, and a footer summary. Pure formatting.

import { formatAge } from "../../domain/clock.js";
import type { DockRow } from "../../engine/parent-feed.js";

const GLYPH: Record<string, string> = {
  starting: "◌",
  active: "●",
  idle: "○",
  needs_input: "?",
  ready: "✓",
  failed: "✗",
  ended: "·",
};

export function formatDock(rows: readonly DockRow[], nowMs: number, overlaps: ReadonlyMap<string, string> = new Map()): string[] {
  const visible = rows.filter((r) => r.state !== "ended" || r.version !== null);
  if (visible.length === 0) return [];
  return visible.map((r) => {
    const live = r.live ? "" : " (gone)";
    const q = r.questions > 0 ? ` · ${r.questions} question${r.questions === 1 ? "" : "s"}` : "";
    const v = r.version !== null ? ` · v${r.version}` : "";
    const o = overlaps.get(r.worker) ? ` · overlap ${overlaps.get(r.worker)}` : "";
    const task = r.task.length > 48 ? `${r.task.slice(0, 47)}…` : r.task;
    return `${GLYPH[r.state] ?? "·"} ${r.worker}·${r.kind} ${r.state.replace("_", " ")}${live} · ${task}${q}${v}${o} · ${formatAge(r.updatedAt, nowMs)}`;
  });
}

export function formatDockStatus(rows: readonly DockRow[]): string | undefined {
  if (rows.length === 0) return undefined;
  const count = (pred: (r: DockRow) => boolean) => rows.filter(pred).length;
  const parts = [
    [count((r) => r.state === "needs_input"), "waiting"],
    [count((r) => r.state === "failed"), "failed"],
    [count((r) => r.state === "ready"), "ready"],
    [count((r) => ["starting", "active", "idle"].includes(r.state)), "running"],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, label]) => `${n} ${label}`);
  return `docket · ${parts.length > 0 ? parts.join(" · ") : "all settled"}`;
}

export function formatNotification(n: { kind: string; worker: string | null; item: string | null; body: string; forHuman: string[] }): string {
  const who = [n.worker, n.item].filter(Boolean).join(" · ");
  const head = { question: "asks", blocked: "is blocked", ready: "is ready for review", failed: "failed", outcome: "reported" }[n.kind] ?? n.kind;
  const lines = [`docket · ${who} ${head}: ${n.body}`, ...n.forHuman.map((l) => `  ${l}`)];
  return lines.join("\n");
}
