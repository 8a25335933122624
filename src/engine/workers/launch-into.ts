// Starting one generation of a worker in its tmux window, wherever it runs, and recording the window it got.
// Every agent launches through here: its environment goes into the worker's 0600 env file, never onto tmux's
// command line; a launch the ledger gave up meanwhile has its window closed, so nothing runs unrecorded.

import { join } from "node:path";
import { DocketError, refusal } from "../../domain/errors.js";
import type { LaunchExecution } from "../../domain/workers/execution.js";
import { transition } from "../../domain/workers/lifecycle.js";
import type { Worker } from "../../domain/workers/worker.js";
import { pathExists } from "../../files/probe.js";
import { applyLifecycle, getWorker, lifecycleRowOf, updateWorker } from "../../ledger/workers/workers.js";
import type { Tmux } from "../../substrate/tmux.js";
import type { EngineContext } from "../context.js";
import { ensureDoor } from "../door/door.js";
import { placeOf, type WindowIds } from "../places/place.js";
import {
  containArgv,
  containGit,
  decideContainment,
  sandboxInput,
  scratchDir,
  type Containment,
} from "./containment.js";
import { localRelay, prepareLaunchNetwork } from "./egress.js";
import {
  buildWorkerEnv,
  docketBinPath,
  launchCommand,
  tmuxSessionName,
  wrapArgv,
  writeWorkerLaunchEnv,
} from "./launch.js";

/**
 * Starts one generation in the worker's window and records the window and pane it got. Every agent launches
 * through here: its environment goes into the worker's 0600 env file, never onto tmux's command line or session.
 */
export function launchInto(
  ctx: EngineContext,
  row: Worker,
  execution: LaunchExecution,
  launch: { generation: number; runToken: string; env: Record<string, string> },
): WindowIds {
  const place = placeOf(ctx, { execution });
  const session = tmuxSessionName(ctx);
  const containment = decideContainment(ctx, execution);
  const { contained } = containment;
  const { generation, runToken } = launch;
  const env = buildWorkerEnv(ctx, { worker: row.id, generation, runToken }, launch.env);
  const start = place.prepareLaunch(row, execution, { generation, env, session, containment });
  let ids: WindowIds;
  try {
    ensureDoor(ctx); // the worker's first call waits (bounded) for its socket; the door is up well before that
    ids = start();
  } catch (error) {
    if (error instanceof DocketError && error.code === "host-unreachable") throw error;
    const message = `could not start ${row.id} in tmux: ${(error as Error).message}`;
    throw new DocketError("refusal", "launch-failed", message, { cause: error });
  }
  return recordLaunch(ctx, row, { generation, session, ids, contained }, place.tmux());
}

/**
 * A launch on this machine, prepared: its contained environment and argv made and its network checked (a launch whose
 * agent cannot reach its model API under `network: "none"` is refused by name now); its window opens on the call.
 */
export function prepareLocalLaunch(
  ctx: EngineContext,
  row: Worker,
  execution: LaunchExecution,
  launch: { generation: number; env: Record<string, string>; session: string; containment: Containment },
): () => WindowIds {
  const { generation, env, session, containment } = launch;
  const { contained } = containment;
  const inSubdir = join(row.workspace, execution.subdir);
  const cwd = execution.subdir && pathExists(inSubdir) ? inSubdir : row.workspace;
  const scratch = containment.contained ? containedEnv(ctx, row, execution, env) : undefined;
  const unattended = containment.contained && ctx.config().worker.unattended;
  const command = launchCommand(ctx, { row, execution, generation, cwd, env, unattended, contained });
  const relay = containment.contained
    ? prepareLaunchNetwork(ctx, { worker: row.id, generation }, execution, env, localRelay(ctx))
    : [];
  return () => {
    const envFile = writeWorkerLaunchEnv(ctx, row.id, generation, { ...env, ...command.env });
    const wrapped = wrapArgv({ envFile, cwd }, [...relay, ...command.argv]);
    let argv = wrapped;
    if (containment.contained && scratch) {
      const sandbox = sandboxInput(ctx, row, execution, { scratch, docketBin: docketBinPath(), env });
      argv = [...containArgv(containment.bwrap, sandbox), ...wrapped];
    }
    return ctx.tmux.launchWindow({ session, name: row.id, argv });
  };
}

/** Records the window a launch got; a launch given up meanwhile has its window closed (nothing runs unrecorded). */
function recordLaunch(
  ctx: EngineContext,
  row: Worker,
  got: { generation: number; session: string; ids: WindowIds; contained: boolean },
  tmux: Tmux,
): WindowIds {
  const { generation, session, ids, contained } = got;
  try {
    ctx.commands.run("worker.launched", { worker: row.id, generation }, (tx) => {
      const now = getWorker(tx.db, row.id);
      // Closed without a process exit (reconciled as stalled, or deleted) or respawned meanwhile: this launch is over.
      if (!now || now.generation !== generation || (now.exited && now.exitCode === null)) {
        const why = now?.lastError ? ` (${now.lastError})` : "";
        throw refusal(
          "launch-abandoned",
          `${row.id} generation ${generation} was given up while it started${why}; its window was closed`,
        );
      }
      const event = { kind: "launched" as const, session, windowId: ids.windowId, paneId: ids.paneId };
      applyLifecycle(tx, row.id, transition(lifecycleRowOf(now), event, tx.now));
      if (now.contained !== contained) updateWorker(tx, row.id, { contained });
    });
  } catch (error) {
    tmux.killWindow(ids.windowId); // nothing may run that the ledger does not point at
    throw error;
  }
  return ids;
}

/** A contained worker's environment: its own TMPDIR, and no name of the tmux server (peek, tell, attach go through
 * Docket). */
function containedEnv(
  ctx: EngineContext,
  row: Worker,
  execution: LaunchExecution,
  env: Record<string, string>,
): string {
  const scratch = scratchDir(ctx, row.id);
  env.TMPDIR = scratch;
  // Your home is read-only inside: tools' caches (npm's, XDG's) go to its scratch unless it was given its own.
  env.XDG_CACHE_HOME ??= join(scratch, ".cache");
  // biome-ignore lint/complexity/useLiteralKeys: an environment name, not a field (the engine reads no snake_case field)
  env["npm_config_cache"] ??= join(scratch, ".npm");
  delete env.DOCKET_TMUX_SOCKET;
  // A read-only kind commits nothing: its git reads the repository as it is (read-only), with no git dir of its
  // own.
  if (!execution.readOnly) containGit(ctx, row, env);
  return scratch;
}
