// `docket delete <w>` and `docket prune`: retire one worker — window, workspace, row — and touch no other.
// Never-promoted changes are refused unless forced; deliverable sidecars are kept (review stays possible).

import { placeOf } from "../places/place.js";
import type { Worker } from "../../domain/workers/worker.js";
import { refusal } from "../../domain/errors.js";
import { confirmationDeclined, confirmationRefused, resolveConfirmation } from "../../domain/review/confirmation.js";
import { WORKER_FILES, removeWorkerPath, workerFilePath } from "../../files/workers/worker-files.js";
import { formatAge } from "../../domain/clock.js";
import { isSettled } from "../../domain/workers/lifecycle.js";
import { cancelQueuedMessages } from "../../ledger/talk/message-delivery.js";
import { workersOf } from "../../ledger/workers/fleet-reads.js";
import { requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import { recordDecisionDebt } from "../../ledger/review/decisions.js";
import { heldItemsOf, releaseHeldItems } from "../../ledger/work/release.js";
import type { EngineContext } from "../context.js";
import { harvestPane } from "./harvest.js";
import { resolveWorkerId } from "./view.js";
import { removeWorkerLaunchEnv } from "./launch.js";
import { worktreeLock } from "./locks.js";
import { assertHuman } from "../authority.js";

export interface DeleteInput {
  worker: string;
  force?: boolean;
  yes?: boolean;
  interactive?: boolean;
  /** Asked on a terminal unless --yes. */
  confirm?: (question: string) => Promise<boolean>;
}

export interface DeleteResult {
  worker: string;
  deleted: true;
  workspaceRemoved: boolean;
  cancelledMessages: number;
  /** Items it held, released back (open, owed by nobody) with the reason on each obligation. */
  releasedItems: string[];
}

export async function deleteWorker(ctx: EngineContext, input: DeleteInput): Promise<DeleteResult> {
  assertHuman(ctx, "delete");
  const row = requireWorker(ctx.db, resolveWorkerId(input.worker));
  const step = resolveConfirmation("delete", {
    yes: Boolean(input.yes),
    interactive: Boolean(input.interactive && input.confirm),
  });
  const held = heldLine(ctx, row.id);
  if (step === "refuse") throw confirmationRefused("delete", row.id, held);
  if (
    step === "ask" &&
    !(await input.confirm!(
      `Delete ${row.id} (${row.task})? Its window and workspace go; deliverables stay.${held ? ` ${held}.` : ""}`,
    ))
  ) {
    throw confirmationDeclined("delete", row.id);
  }
  return retireWorker(ctx, row, { force: Boolean(input.force) });
}

/** What a delete does to the items the worker still owes a report on, said before it is asked. */
function heldLine(ctx: EngineContext, worker: string): string {
  const held = heldItemsOf(ctx.db, worker).map((h) => h.item);
  return held.length === 0
    ? ""
    : `it owes a report on ${held.join(", ")}: ${held.length === 1 ? "that item is" : "those items are"} released back open, owed by nobody`;
}

function unpromotedChanges(ctx: EngineContext, row: Worker): boolean {
  if (row.workspaceMode !== "isolated" || row.base === null) return false;
  // A worker on a host changed its workspace there; the one here is only its base.
  return placeOf(ctx, row).hasLiveChanges(row);
}

/** Refuses a worker whose workspace holds changes never promoted, unless forced. */
function assertRetirable(ctx: EngineContext, row: Worker, force: boolean): void {
  if (!force && unpromotedChanges(ctx, row)) {
    throw refusal(
      "unpromoted-changes",
      `${row.id}'s workspace has changes that were never promoted; nothing was deleted`,
      `promote or discard them first, or pass --force to delete them with the worker`,
    );
  }
}

function retireWorker(ctx: EngineContext, row: Worker, options: { force: boolean; pruned?: boolean }): DeleteResult {
  assertRetirable(ctx, row, options.force);
  // Checked before anything is removed: a link in the worker's directory would point the removals outside the home.
  workerFilePath(ctx.home, row.id, WORKER_FILES.session);
  const place = placeOf(ctx, row);
  const tmux = place.tmux();
  if (row.windowId) {
    harvestPane(ctx, row, { tmux });
    tmux.killWindow(row.windowId);
  }
  place.retire(row); // on a host: its tunnel, workspace, env file and sockets leave the host
  let workspaceRemoved = false;
  if (row.workspaceMode === "isolated") {
    // Under the repository's worktree lock: its prune must not meet a spawn's worktree half-way through its move.
    ctx.git.removeWorkspace({
      root: row.projectRoot,
      path: row.workspace,
      method: row.baseHead === null ? "copy" : "worktree",
      serialize: worktreeLock(ctx, row.projectRoot),
    });
    workspaceRemoved = true;
  }
  removeWorkerPath(ctx.home, row.id, WORKER_FILES.session);
  removeWorkerLaunchEnv(ctx, row.id); // its run token and --env secrets go with it
  const { cancelledMessages, releasedItems } = ctx.commands.run("worker.delete", { worker: row.id }, (tx) => {
    const n = cancelQueuedMessages(tx, row.id);
    const released = releaseHeldItems(tx, row.id, `released: ${row.id} was deleted before it reported`);
    // A pruned worker whose current version nobody judged becomes decision debt, recorded with the pruning.
    if (options.pruned) recordDecisionDebt(tx, row);
    updateWorker(tx, row.id, {
      deletedAt: tx.now,
      exited: true,
      exitedAt: row.exitedAt ?? tx.now,
      windowId: null,
      paneId: null,
    });
    return { cancelledMessages: n, releasedItems: released.map((h) => h.item) };
  }).result;
  return { worker: row.id, deleted: true, workspaceRemoved, cancelledMessages, releasedItems };
}

export interface PruneResult {
  dryRun: boolean;
  /** Deleted (with dryRun: that would be). */
  pruned: string[];
  skipped: { worker: string; reason: string }[];
  /** Settled, but not for long enough yet: when each may be pruned. */
  young: { worker: string; prunableAt: string; prunableIn: string }[];
  pruneAfterHours: number;
}

/** Deletes workers settled for longer than `worker.pruneAfterHours`, across projects; never forces. */
export function pruneWorkers(ctx: EngineContext, options: { dryRun?: boolean } = {}): PruneResult {
  assertHuman(ctx, "prune");
  const hours = ctx.config().worker.pruneAfterHours;
  const cutoff = ctx.clock.nowMs() - hours * 3_600_000;
  const result: PruneResult = {
    dryRun: Boolean(options.dryRun),
    pruned: [],
    skipped: [],
    young: [],
    pruneAfterHours: hours,
  };
  for (const row of workersOf(ctx.db)) {
    if (!isSettled({ state: row.state, reviewedAt: row.reviewedAt })) continue;
    const since = Date.parse(row.reviewedAt ?? row.settledAt ?? row.updatedAt);
    if (since > cutoff) {
      const at = since + hours * 3_600_000;
      result.young.push({
        worker: row.id,
        prunableAt: new Date(at).toISOString(),
        prunableIn: formatAge(ctx.clock.now(), at),
      });
      continue;
    }
    try {
      if (options.dryRun) assertRetirable(ctx, row, false);
      else retireWorker(ctx, row, { force: false, pruned: true });
      result.pruned.push(row.id);
    } catch (error) {
      result.skipped.push({ worker: row.id, reason: (error as Error).message });
    }
  }
  return result;
}
