// A spawn's two ledger moments: the worker's row recorded (starting) before anything runs, with its budget and its
// handoff's provenance; and, when a later step fails, the row marked failed and everything the spawn made removed.

import { transition } from "../../domain/workers/lifecycle.js";
import { WORKER_FILES, removeWorkerDir, workerPath } from "../../files/workers/worker-files.js";
import { setBudget } from "../../ledger/workers/spend.js";
import { applyLifecycle, getWorker, insertWorker, lifecycleRowOf, updateWorker } from "../../ledger/workers/workers.js";
import type { IsolatedWorkspace, Serialize } from "../../substrate/git/worktree.js";
import type { EngineContext } from "../context.js";
import { listingAt, placeOf } from "../places/place.js";
import { resolveBudget } from "./budget.js";
import { assertFleetRoom, takePaneSnapshot } from "./fleet.js";
import type { ResolvedSpawn, SpawnHandoff, SpawnInput } from "./spawn-resolve.js";

export function withSidecarPath(h: SpawnHandoff, sidecarPath: string): SpawnHandoff {
  return { ...h, record: { ...h.record, sidecarPath }, brief: { ...h.brief, sidecarPath } };
}

export const sidecarOf = (ctx: EngineContext, id: string) => workerPath(ctx.home, id, WORKER_FILES.sourcePlan);

/** The worker's row (starting), its budget and its handoff's provenance, in one command; returns its id. */
export function recordSpawn(
  ctx: EngineContext,
  { task, config, resolved, execution }: ResolvedSpawn,
  input: SpawnInput,
  { projectRoot, runToken }: { projectRoot: string; runToken: string },
): string {
  const agent = resolved.agent;
  const budget = resolveBudget(agent, input.budgetUsd ?? (config.budgetUsd > 0 ? config.budgetUsd : undefined));
  const panes = takePaneSnapshot(ctx.tmux, ctx.clock.now(), { db: ctx.db, listHost: (h) => listingAt(ctx, h) });
  // A place that does not answer (a dead host): a named refusal, and no row written.
  placeOf(ctx, { execution }).reach();
  return ctx.commands.run("worker.spawn", { task }, (tx) => {
    assertFleetRoom(tx.db, config.maxActive, panes, ctx.clock.nowMs());
    const id = insertWorker(tx, {
      task,
      kind: resolved.kind,
      agent,
      command: input.command,
      execution,
      envNames: Object.keys(input.env ?? {}),
      cwd: ctx.cwd,
      projectRoot,
      workspace: (id) =>
        resolved.workspace === "isolated" ? workerPath(ctx.home, id, WORKER_FILES.workspace) : projectRoot,
      workspaceMode: resolved.workspace,
      runToken,
      spawnerPid: process.pid,
    });
    if (budget !== undefined) setBudget(tx, id, budget);
    // The sidecar path is known only once the id is: provenance names the file this worker actually gets.
    if (input.handoff) {
      updateWorker(tx, id, { sourceHandoff: withSidecarPath(input.handoff, sidecarOf(ctx, id)).record });
    }
    return id;
  }).result;
}

/** Marks a spawn that failed part-way failed with its reason, then removes its workspace and directory. */
export function abandonSpawn(
  ctx: EngineContext,
  worker: string,
  error: unknown,
  made: { retire: boolean; workspace?: IsolatedWorkspace; serialize: Serialize },
): void {
  const message = error instanceof Error ? error.message : String(error);
  try {
    ctx.commands.run("worker.spawn-failed", { worker }, (tx) => {
      const row = getWorker(tx.db, worker);
      const event = { kind: "spawn-failed" as const, reason: message, retire: made.retire };
      if (row) applyLifecycle(tx, worker, transition(lifecycleRowOf(row), event, tx.now));
    });
  } catch {
    // The ledger stayed locked past busy_timeout: the row is left starting without a window, and the next
    // `docket ls` reconciles it (failed) once this process is gone. The caller still reports the first error.
  } finally {
    try {
      const ws = made.workspace;
      const serialize = made.serialize;
      if (ws) ctx.git.removeWorkspace({ root: ctx.projectRoot(), path: ws.path, method: ws.method, serialize });
    } catch {
      // The worktree lock could not be had in time: the worktree stays registered until `git worktree prune`.
    }
    removeWorkerDir(ctx.home, worker);
  }
}
