// This machine as a worker's place: its window on Docket's own tmux server, its workspace a git worktree (or copy)
// here, read and reset through the git port; its launch and containment are the workers room's own.

import type * as ContainmentModule from "../workers/containment.js";
import type * as LaunchIntoModule from "../workers/launch-into.js";
import { workerTreeOf } from "../../domain/workers/worker-tree.js";
import { pathExists } from "../../files/probe.js";
import { lazyModule } from "../../substrate/require-esm.js";
import type { EngineContext } from "../context.js";
import type { WorkerPlace } from "./place.js";

// Loaded on first launch: a use-case that only looks at a pane loads nothing of a launch.
const containment = lazyModule<typeof ContainmentModule>(import.meta.url, "../workers/containment.js");
const launchInto = lazyModule<typeof LaunchIntoModule>(import.meta.url, "../workers/launch-into.js");

export function localPlace(ctx: EngineContext): WorkerPlace {
  return {
    host: undefined,
    at: "",
    listingKey: undefined,
    watched: true,
    tmux: () => ctx.tmux,
    listingIn: (local) => local,
    attach(session, windowId) {
      const command = ctx.tmux.attachArgv(session, windowId);
      if (ctx.env.TMUX) {
        try {
          ctx.tmux.switchClient(windowId);
          return { switched: true, command };
        } catch {
          // This client is attached to a different tmux server (or none): fall back to printing the command.
        }
      }
      return { switched: false, command };
    },
    runsOn: () => "this machine",
    assertSpawnable: () => {},
    reach: () => {},
    prepareWorkspace: () => {}, // the spawn made its workspace and task.md here already
    decideContainment: (execution, mode) => containment().decideLocalContainment(ctx, execution, mode),
    prepareLaunch: (row, execution, launch) => launchInto().prepareLocalLaunch(ctx, row, execution, launch),
    liveChangedPaths: (row) => (row.base === null ? [] : ctx.git.liveChangedPaths(workerTreeOf(row), row.base)),
    hasLiveChanges: (row) => row.base !== null && ctx.git.liveChangesExist(workerTreeOf(row), row.base),
    capture: (_row, input) => ctx.git.captureChangeSet(input),
    captureSource: () => ({}),
    reset: (row, base) => ctx.git.resetWorkspace(workerTreeOf(row), base),
    settle(row, base, patch) {
      if (!pathExists(row.workspace)) return "missing";
      if (!ctx.git.liveEqualsFrozen(workerTreeOf(row), base, patch)) return "kept-later-edits";
      ctx.git.resetWorkspace(workerTreeOf(row), base);
      return "reset";
    },
    retire: () => {}, // its window, workspace and files here are the delete's own steps
  };
}
