// What the human's pi session reads from the ledger: a cheap change stamp, dock rows, notifications to show
// once, and queued Use → Parent chips. Reads are plain queries; marking delivered/consumed is one command each.

import { deliverableRef, parseDeliverableRef } from "../../domain/deliverables/refs.js";
import { isSettled, resolveDisplayState, resolveLiveness, type LifecycleView } from "../../domain/workers/lifecycle.js";
import { dataVersion } from "../../ledger/core/open.js";
import { consumeChips, hasQueuedChips as chipsQueued, queuedChipSizes } from "../../ledger/talk/chips.js";
import { markDelivered, undeliveredNotifications, type WorkerNow } from "../../ledger/talk/notifications.js";
import { humanMessagesSince, lastMessageRowid } from "../../ledger/talk/message-delivery.js";
import { dockWorkers } from "../../ledger/workers/fleet-reads.js";
import { openQuestionCounts } from "../../ledger/workers/questions.js";
import { readDeliverable } from "../../files/workers/deliverables.js";
import type { AttentionNotification } from "./attention.js";
import type { EngineContext } from "../context.js";
import { findingsByWorker, isConsulting, shownState, type WorkerListEntry } from "../workers/view.js";
import { findingsView } from "../../domain/workers/evidence.js";
import { openQuestionAudiences } from "../../ledger/workers/questions.js";
import { undismissedNoteCounts } from "../../ledger/talk/notes.js";
import { baseMovedOf } from "../review/base-moved.js";
import { assertHuman } from "../authority.js";
import { isStaleNotice } from "../../domain/workers/stale-notice.js";
import { countsAsJudgment } from "../../domain/review/approval.js";
import { decisionsForRef } from "../../ledger/review/decisions.js";
import { EMPTY_TOTALS, type SpendTotals } from "../../domain/workers/spend.js";
import { isSpendAgent } from "../workers/spend.js";
import { spendByWorker } from "../../ledger/workers/spend.js";

/** A `docket ls` entry (state derived by the same domain rules, without probing tmux: the dock stays cheap). */
export interface DockRow extends Omit<WorkerListEntry, "deliverable" | "spend"> {
  version: number | null;
  /**
   * Spend recorded so far (the dock does not read the agents' files itself: `ls`, `show`, `verdict` and the long-lived
   * processes' budget rounds do); null for a worker whose agent keeps no records Docket can read.
   */
  spend?: SpendTotals | null;
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
  return dataVersion(ctx.db);
}

/** Files of frozen versions, keyed `w<N>:<version>`: sidecars never change, so each is read at most once. */
export type PatchFileCache = Map<string, readonly string[]>;

/** This project's unsettled workers, in label order, as the dock shows them. */
export function dockRows(ctx: EngineContext, cache: PatchFileCache = new Map()): DockRow[] {
  const now = ctx.clock.nowMs();
  // Only the columns the dock shows, through cached statements: this runs on every ledger change.
  const rows = dockWorkers(ctx.db, ctx.projectRoot()).filter((r) => !isSettled(r));
  const questions = openQuestionCounts(ctx.db);
  const audiences = openQuestionAudiences(ctx.db);
  const moved = baseMovedOf(ctx, rows);
  const shared = undismissedNoteCounts(ctx.db);
  const spend = spendByWorker(ctx.db);
  const files = new Map<string, readonly string[]>();
  const findings = findingsByWorker(ctx);
  for (const r of rows)
    if (r.deliverableVersion !== null) files.set(r.id, patchFiles(ctx, cache, r.id, r.deliverableVersion));
  return rows.map((r) => {
    const found = findingsView(r, findings.get(r.id) ?? []);
    const consulting = isConsulting(audiences.get(r.id));
    const view: LifecycleView = { ...r, pane: "unprobed", consulting, findings: found };
    const state = shownState(ctx, r, resolveDisplayState(view, now));
    const liveness = resolveLiveness(view, now);
    return {
      worker: r.id,
      kind: r.kind,
      task: r.task,
      state,
      ...(found.reason !== null ? { reason: found.reason } : {}),
      liveness,
      generation: r.generation,
      questions: questions.get(r.id) ?? 0,
      version: r.deliverableVersion,
      overlapsWith: firstOverlap(r.id, files),
      baseMoved: moved.get(r.id)?.files.length ?? 0,
      shared: shared.get(r.id) ?? 0,
      updatedAt: r.updatedAt,
      createdAt: r.createdAt,
      contained: r.contained,
      ...(r.host !== null ? { host: r.host } : {}),
      spend: isSpendAgent(r.agent) ? (spend.get(r.id) ?? { ...EMPTY_TOTALS }) : null,
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

export function pendingParentNotifications(ctx: EngineContext): PendingNotices {
  const out: PendingNotices = { fresh: [], stale: [] };
  for (const { now, ...notice } of undeliveredNotifications(ctx.db, ctx.projectRoot()))
    (noticeSettled(ctx, notice, now) ? out.stale : out.fresh).push(notice);
  return out;
}

/** What a notice announces was settled since (its worker deleted, its question answered, its version judged …). */
export function noticeSettled(ctx: EngineContext, notice: { kind: string; body: string }, now: WorkerNow): boolean {
  return (
    now !== null &&
    isStaleNotice({
      kind: notice.kind,
      workerDeleted: now.deleted,
      versionSettled: notice.kind === "ready" && readySettled(ctx, notice.body, now.deliverableVersion),
      openQuestions: now.openQuestions,
      workerState: now.state,
      reviewed: now.reviewedAt !== null,
    })
  );
}

/** A ready notice names its version first in its body (`worker-deliverable:w3:2 (completed): …`, protocol `done`). */
function readySettled(ctx: EngineContext, body: string, currentVersion: number | null): boolean {
  const named = parseDeliverableRef(body.split(" ", 1)[0] ?? "");
  if (!named || named.version !== currentVersion) return true; // a newer version (or none) is current now
  return decisionsForRef(ctx.db, deliverableRef(named.workerId, named.version)).some(countsAsJudgment);
}

/** Marks notifications shown; called after they reached the human, so a crash in between repeats, never loses. */
export function markNotificationsDelivered(ctx: EngineContext, ids: string[]): void {
  if (ids.length === 0) return;
  ctx.commands.run("parent.notifications-delivered", { ids }, (tx) => {
    markDelivered(tx, ids);
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
  return queuedChipSizes(ctx.db, ctx.projectRoot());
}

/** Queued chips exist? A cheap read so an ordinary prompt costs no write. */
export function hasQueuedChips(ctx: EngineContext): boolean {
  return chipsQueued(ctx.db, ctx.projectRoot());
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
  return lastMessageRowid(ctx.db);
}

/** The human's words (tell, answer, review note) to this project's workers sent after `mark`, oldest first. */
export function messageDeliveriesSince(ctx: EngineContext, mark: number): MessageDelivery[] {
  return humanMessagesSince(ctx.db, mark, ctx.projectRoot());
}
