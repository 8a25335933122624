// What the human's pi session reads from the ledger: a cheap change stamp, dock rows, notifications to show
// once, and queued Use → Parent chips. Reads are plain queries; marking delivered/consumed is one command each.

import { isSettled, resolveDisplayState, resolveLiveness, type LifecycleView } from "../../domain/workers/lifecycle.js";
import { consumeChips } from "../../ledger/talk/chips.js";
import { statement } from "../../ledger/core/statements.js";
import type { WorkerRow } from "../../ledger/workers/workers.js";
import { readDeliverable } from "../../files/workers/deliverables.js";
import type { AttentionNotification } from "./attention.js";
import type { EngineContext } from "../context.js";
import { isConsulting, type WorkerListEntry } from "../workers/view.js";
import { openQuestionAudiences } from "../../ledger/talk/consults.js";
import { undismissedNoteCounts } from "../../ledger/talk/notes.js";
import { baseMovedOf } from "../review/base-moved.js";
import { assertHuman } from "../authority.js";
import { deliverableRef, parseDeliverableRef } from "../../domain/deliverables/deliverable.js";
import { isStaleNotice } from "../../domain/workers/stale-notice.js";

/** A `docket ls` entry (state derived by the same domain rules, without probing tmux: the dock stays cheap). */
export interface DockRow extends Omit<WorkerListEntry, "deliverable"> {
  version: number | null;
  /** Another unsettled worker whose current frozen patch touches a file this one's does. */
  overlapsWith: string | null;
  /** Landed files it works on since it started (0 when its base did not move, or its version is decided). */
  baseMoved: number;
  /** Its notes the human has not dismissed. */
  shared: number;
  updatedAt: string;
  createdAt: string;
}

/** The same shape `docket attention` lists; the parent shows each once. */
export type ParentNotification = AttentionNotification;

/** SQLite's data_version: changes whenever another connection commits. Costs no I/O beyond the page cache. */
export function ledgerStamp(ctx: EngineContext): number {
  return ctx.db.pragma("data_version", { simple: true }) as number;
}

type DockWorkerRow = Pick<
  WorkerRow,
  | "id" | "kind" | "task" | "agent" | "state" | "exited" | "heartbeat_at" | "updated_at" | "reviewed_at" | "pane_captured_at" | "generation"
  | "deliverable_version" | "created_at" | "project_root" | "source_handoff" | "deliverable_ref"
>;

const DOCK_SQL = `SELECT id, kind, task, agent, state, exited, heartbeat_at, updated_at, reviewed_at, pane_captured_at, generation,
  deliverable_version, created_at, project_root, source_handoff, deliverable_ref FROM workers WHERE deleted_at IS NULL AND project_root = ? ORDER BY seq`;

/** Files of frozen versions, keyed `w<N>:<version>`: sidecars never change, so each is read at most once. */
export type PatchFileCache = Map<string, readonly string[]>;

/** This project's unsettled workers, in label order, as the dock shows them. */
export function dockRows(ctx: EngineContext, cache: PatchFileCache = new Map()): DockRow[] {
  const now = ctx.clock.nowMs();
  // Only the columns the dock shows, through cached statements: this runs on every ledger change.
  const rows = (statement(ctx.db, DOCK_SQL).all(ctx.projectRoot()) as DockWorkerRow[]).filter((r) => !isSettled({ state: r.state, reviewedAt: r.reviewed_at }));
  const questions = new Map(
    (statement(ctx.db, "SELECT worker, count(*) AS n FROM questions WHERE state = 'open' GROUP BY worker").all() as { worker: string; n: number }[]).map((q) => [q.worker, q.n]),
  );
  const audiences = openQuestionAudiences(ctx.db);
  const moved = baseMovedOf(ctx, rows);
  const shared = undismissedNoteCounts(ctx.db);
  const files = new Map<string, readonly string[]>();
  for (const r of rows) if (r.deliverable_version !== null) files.set(r.id, patchFiles(ctx, cache, r.id, r.deliverable_version));
  return rows.map((r) => {
    const view: LifecycleView = {
      state: r.state,
      agent: r.agent,
      exited: r.exited === 1,
      heartbeatAt: r.heartbeat_at,
      updatedAt: r.updated_at,
      reviewedAt: r.reviewed_at,
      paneCapturedAt: r.pane_captured_at,
      pane: "unprobed",
      consulting: isConsulting(audiences.get(r.id)),
    };
    const state = resolveDisplayState(view, now);
    const liveness = resolveLiveness(view, now);
    return {
      worker: r.id,
      kind: r.kind,
      task: r.task,
      state,
      liveness,
      generation: r.generation,
      questions: questions.get(r.id) ?? 0,
      version: r.deliverable_version,
      overlapsWith: firstOverlap(r.id, files),
      baseMoved: moved.get(r.id)?.files.length ?? 0,
      shared: shared.get(r.id) ?? 0,
      updatedAt: r.updated_at,
      createdAt: r.created_at,
    };
  });
}

function patchFiles(ctx: EngineContext, cache: PatchFileCache, worker: string, version: number): readonly string[] {
  const key = `${worker}:${version}`;
  let found = cache.get(key);
  if (found === undefined) {
    const read = readDeliverable(ctx.home, worker, version);
    // An unreadable sidecar has no files to compare; `docket report` shows why it cannot be read.
    found = read.ok ? (read.deliverable.changeSet?.files.map((f) => f.path) ?? []) : [];
    cache.set(key, found);
  }
  return found;
}

function firstOverlap(worker: string, files: ReadonlyMap<string, readonly string[]>): string | null {
  const mine = files.get(worker);
  if (!mine || mine.length === 0) return null;
  for (const [other, theirs] of files) {
    if (other !== worker && theirs.some((p) => mine.includes(p))) return other;
  }
  return null;
}

/** Notifications this parent has not shown yet, oldest first: `fresh` to show, `stale` (already settled) to fold. */
export interface PendingNotices {
  fresh: ParentNotification[];
  stale: ParentNotification[];
}

type NoticeRow = {
  id: string; kind: string; worker: string | null; item: string | null; body: string; for_human: string;
  deleted_at: string | null; state: string | null; reviewed_at: string | null; deliverable_version: number | null; open_questions: number;
};

export function pendingParentNotifications(ctx: EngineContext): PendingNotices {
  const rows = statement(
    ctx.db,
    `SELECT n.id, n.kind, n.worker, n.item, n.body, n.for_human, w.deleted_at, w.state, w.reviewed_at, w.deliverable_version,
            (SELECT count(*) FROM questions q WHERE q.worker = n.worker AND q.state = 'open') AS open_questions
       FROM notifications n LEFT JOIN workers w ON w.id = n.worker
      WHERE n.delivered_at IS NULL AND n.dismissed_at IS NULL AND (w.project_root = ? OR n.worker IS NULL)
      ORDER BY CAST(substr(n.id, 2) AS INTEGER) LIMIT 50`,
  ).all(ctx.projectRoot()) as NoticeRow[];
  const out: PendingNotices = { fresh: [], stale: [] };
  for (const r of rows) {
    const notice = { id: r.id, kind: r.kind, worker: r.worker, item: r.item, body: r.body, forHuman: JSON.parse(r.for_human) as string[] };
    const stale = r.worker !== null && isStaleNotice({
      kind: r.kind, workerDeleted: r.deleted_at !== null, versionSettled: r.kind === "ready" && readySettled(ctx, r),
      openQuestions: r.open_questions, workerState: r.state, reviewed: r.reviewed_at !== null,
    });
    (stale ? out.stale : out.fresh).push(notice);
  }
  return out;
}

/** A ready notice names its version first in its body (`worker-deliverable:w3:2 (completed): …`, protocol `done`). */
function readySettled(ctx: EngineContext, r: NoticeRow): boolean {
  const named = parseDeliverableRef(r.body.split(" ", 1)[0] ?? "");
  if (!named || named.version !== r.deliverable_version) return true; // a newer version (or none) is current now
  return statement(ctx.db, "SELECT 1 FROM decisions WHERE deliverable_ref = ? AND verb IN ('approve', 'reject', 'promote') LIMIT 1").get(deliverableRef(named.workerId, named.version)) !== undefined;
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
  assertHuman(ctx, "chips take");
  return ctx.commands
    .run("parent.take-chips", { projectRoot: ctx.projectRoot() }, (tx) => consumeChips(tx, ctx.projectRoot()))
    .result.map((c) => ({ id: c.id, ref: c.ref, body: c.body }));
}

/** The chips queued for this project's next prompt, for the dock (ids and refs only: bodies stay in the ledger). */
export function queuedChips(ctx: EngineContext): { id: string; ref: string; bytes: number }[] {
  const rows = statement(ctx.db, "SELECT id, ref, length(CAST(body AS BLOB)) AS bytes FROM chips WHERE state = 'queued' AND project_root = ? ORDER BY seq").all(ctx.projectRoot());
  return rows as { id: string; ref: string; bytes: number }[];
}

/** Queued chips exist? A cheap read so an ordinary prompt costs no write. */
export function hasQueuedChips(ctx: EngineContext): boolean {
  return statement(ctx.db, "SELECT 1 FROM chips WHERE state = 'queued' AND project_root = ? LIMIT 1").get(ctx.projectRoot()) !== undefined;
}

/** One of the human's messages to a worker and how far it got: queued → delivered → read (observed, never assumed). */
export interface MessageDelivery {
  message: string;
  worker: string;
  delivery: "queued" | "delivered" | "read" | "cancelled";
  /** The worker's process has exited: a queued message waits for a respawn. */
  workerExited: boolean;
}

/** The newest message row so far: a parent session shows the deliveries of messages sent after it started. */
export function lastMessageMark(ctx: EngineContext): number {
  return (statement(ctx.db, "SELECT coalesce(max(rowid), 0) AS n FROM messages").get() as { n: number }).n;
}

/** The human's words (tell, answer, review note) to this project's workers sent after `mark`, oldest first. */
export function messageDeliveriesSince(ctx: EngineContext, mark: number): MessageDelivery[] {
  const rows = statement(
    ctx.db,
    `SELECT m.id, m.worker, m.delivery, w.exited FROM messages m JOIN workers w ON w.id = m.worker
      WHERE m.rowid > ? AND m.kind IN ('tell', 'answer', 'review_note') AND w.project_root = ? ORDER BY m.rowid`,
  ).all(mark, ctx.projectRoot()) as { id: string; worker: string; delivery: MessageDelivery["delivery"]; exited: number }[];
  return rows.map((r) => ({ message: r.id, worker: r.worker, delivery: r.delivery, workerExited: r.exited === 1 }));
}
