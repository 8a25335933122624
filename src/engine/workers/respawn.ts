// `docket respawn <w|all>`: the stored execution again, at generation + 1 with a new run token
// (docs/decisions/spawn-policy.md). One command bumps the generation, records the launch, resets the exit and moves
// active bindings: the old process is fenced.

import { listingAt, placeOf } from "../places/place.js";
import type { Worker } from "../../domain/workers/worker.js";
import { conflict, refusal, validationError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import { moveBindingsToGeneration } from "../../ledger/work/bindings.js";
import { requeueUnread } from "../../ledger/talk/message-delivery.js";
import { insertLaunch } from "../../ledger/workers/launches.js";
import { workersOf } from "../../ledger/workers/fleet-reads.js";
import { transition } from "../../domain/workers/lifecycle.js";
import { applyLifecycle, hashRunToken, lifecycleRowOf, requireWorker } from "../../ledger/workers/workers.js";
import { setBudget } from "../../ledger/workers/spend.js";
import { resolveRespawnBudget } from "./budget.js";
import type { EngineContext } from "../context.js";
import { assertFleetRoom, takePaneSnapshot } from "./fleet.js";
import { harvestPane } from "./harvest.js";
import { launchInto } from "./spawn.js";
import { newRunToken, storedEnvValues } from "./launch.js";
import { unlaunchable } from "../../domain/workers/execution.js";
import { assertHuman } from "../authority.js";

export interface RespawnResult {
  worker: string;
  generation: number;
  movedBindings: string[];
  requeued: number;
  /** --env names whose values were not kept (a worker from before values left the ledger): unset in this generation. */
  missingEnv: string[];
}

export function respawnTarget(
  ctx: EngineContext,
  target: string,
  options: { budgetUsd?: number } = {},
): RespawnResult[] {
  assertHuman(ctx, "respawn");
  if (target.trim() === "all") {
    const rows = workersOf(ctx.db, { projectRoot: ctx.projectRoot() }).filter(
      (r) => r.exited || r.state === "failed" || r.state === "ended",
    );
    return rows.map((r) => respawnWorker(ctx, r.id, options));
  }
  return [respawnWorker(ctx, target, options)];
}

export function respawnWorker(ctx: EngineContext, target: string, options: { budgetUsd?: number } = {}): RespawnResult {
  assertHuman(ctx, "respawn");
  const id = normalizeWorkerId(target);
  if (!id) throw validationError("bad-worker-id", `"${target}" is not a worker id; workers are w<N> (or "all")`);
  const before = requireWorker(ctx.db, id);
  const budget = resolveRespawnBudget(ctx, id, options.budgetUsd);
  const execution = before.execution ?? unlaunchable(id);
  const tmux = placeOf(ctx, before).tmux(); // a worker on a host: its window is on the host's tmux
  if (before.windowId !== null) {
    harvestPane(ctx, before, { tmux }); // a dead pane's tail is kept before its window goes
    tmux.killWindow(before.windowId);
  }
  const generation = before.generation + 1;
  const runToken = newRunToken();
  const stored = storedEnvValues(ctx, id, before.envNames);
  const panes = takePaneSnapshot(ctx.tmux, ctx.clock.now(), { db: ctx.db, listHost: (h) => listingAt(ctx, h) });
  const prepared = ctx.commands.run("worker.respawn", { worker: id, generation }, (tx) => {
    const row = requireWorker(tx.db, id);
    if (row.generation !== before.generation) {
      throw conflict(
        "respawn-raced",
        `${id} was respawned meanwhile (now generation ${row.generation}); nothing was started`,
      );
    }
    // Its own window was killed above, so the worker being respawned does not count against the cap.
    assertFleetRoom(tx.db, ctx.config().maxActive, panes, ctx.clock.nowMs());
    if (budget !== undefined) setBudget(tx, id, budget);
    applyLifecycle(tx, id, transition(lifecycleRowOf(row), { kind: "respawned" }, tx.now), {
      generation,
      runTokenHash: hashRunToken(runToken),
      pid: process.pid, // the respawn starts this generation; its first heartbeat replaces it
    });
    insertLaunch(tx, id, generation, runToken);
    const movedBindings = moveBindingsToGeneration(tx, id, generation);
    const requeued = requeueUnread(tx, id);
    return { row: { ...row, generation }, movedBindings, requeued };
  }).result;
  try {
    launchInto(ctx, prepared.row as Worker, execution, { generation, runToken, env: stored.env });
  } catch (error) {
    const message = (error as Error).message;
    ctx.commands.run("worker.respawn-failed", { worker: id, generation }, (tx) =>
      applyLifecycle(
        tx,
        id,
        transition(lifecycleRowOf(requireWorker(tx.db, id)), { kind: "launch-failed", reason: message }, tx.now),
      ),
    );
    throw refusal("launch-failed", message);
  }
  return {
    worker: id,
    generation,
    movedBindings: prepared.movedBindings,
    requeued: prepared.requeued,
    missingEnv: stored.missing,
  };
}
