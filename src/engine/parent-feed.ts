// What the human's pi session reads from the ledger: a cheap change stamp, dock rows, notifications to show
// once, and queued Use → Parent chips. Reads are plain queries; marking delivered/consumed is one command each.

import { consumeChips, listChips } from "../ledger/chips.js";
import type { EngineContext } from "./context.js";

export interface DockRow {
  worker: string;
  kind: string;
  task: string;
  state: string;
  live: boolean;
  generation: number;
  questions: number;
  version: number | null;
  updatedAt: string;
  createdAt: string;
}

export interface ParentNotification {
  id: string;
  kind: string;
  worker: string | null;
  item: string | null;
  body: string;
  forHuman: string[];
}

/** SQLite's data_version: changes whenever another connection commits. Costs no I/O beyond the page cache. */
export function ledgerStamp(ctx: EngineContext): number {
  return ctx.db.pragma("data_version", { simple: true }) as number;
}

export function dockRows(ctx: EngineContext): DockRow[] {
  const rows = ctx.db
    .prepare(
      `SELECT w.id AS worker, w.kind, w.task, w.state, w.exited, w.heartbeat_at, w.generation, w.deliverable_version AS version,
              w.updated_at AS updatedAt, w.created_at AS createdAt,
              (SELECT count(*) FROM questions q WHERE q.worker = w.id AND q.state = 'open') AS questions
         FROM workers w WHERE w.deleted_at IS NULL AND w.project_root = ? ORDER BY w.seq`,
    )
    .all(ctx.projectRoot()) as (Omit<DockRow, "live"> & { exited: number; heartbeat_at: string | null })[];
  const now = ctx.clock.nowMs();
  return rows.map(({ exited, heartbeat_at, ...r }) => ({
    ...r,
    live: !exited && heartbeat_at !== null && now - Date.parse(heartbeat_at) < 180_000,
  }));
}

/** Notifications for this project's workers that this parent has not shown yet, oldest first. */
export function pendingParentNotifications(ctx: EngineContext): ParentNotification[] {
  const rows = ctx.db
    .prepare(
      `SELECT n.id, n.kind, n.worker, n.item, n.body, n.for_human FROM notifications n
         LEFT JOIN workers w ON w.id = n.worker
        WHERE n.delivered_at IS NULL AND (w.project_root = ? OR n.worker IS NULL)
        ORDER BY n.created_at, n.rowid LIMIT 50`,
    )
    .all(ctx.projectRoot()) as { id: string; kind: string; worker: string | null; item: string | null; body: string; for_human: string }[];
  return rows.map((r) => ({ id: r.id, kind: r.kind, worker: r.worker, item: r.item, body: r.body, forHuman: JSON.parse(r.for_human) as string[] }));
}

/** Marks notifications shown; called after they reached the human, so a crash in between repeats, never loses. */
export function markNotificationsDelivered(ctx: EngineContext, ids: string[]): void {
  if (ids.length === 0) return;
  ctx.commands.run("parent.notifications-delivered", { ids }, (tx) => {
    const mark = tx.db.prepare("UPDATE notifications SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL");
    for (const id of ids) mark.run(tx.now, id);
    return null;
  });
}

export interface AttachedChip {
  id: string;
  ref: string;
  body: string;
}

/** Takes every queued Use → Parent chip of this project for the human's prompt, marking them consumed. */
export function takeChips(ctx: EngineContext): AttachedChip[] {
  return ctx.commands
    .run("parent.take-chips", { projectRoot: ctx.projectRoot() }, (tx) => consumeChips(tx, ctx.projectRoot()))
    .result.map((c) => ({ id: c.id, ref: c.ref, body: c.body }));
}

/** Queued chips exist? A cheap read so an ordinary prompt costs no write. */
export function hasQueuedChips(ctx: EngineContext): boolean {
  return listChips(ctx.db, { projectRoot: ctx.projectRoot() }).length > 0;
}
