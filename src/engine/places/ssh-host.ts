// A host of the user's config as a worker's place: its window on Docket's tmux server there, its workspace there read,
// captured, reset and removed over ssh (engine/hosts/), contained by the host's own bubblewrap.

import type * as HostContainmentModule from "../hosts/host-containment.js";
import type * as RemoteWorkerModule from "../hosts/remote-worker.js";
import type * as LaunchModule from "../workers/launch.js";
import { connectHost } from "../hosts/connect.js";
import { remoteAttachArgv, remoteTmux } from "../../substrate/ssh/host.js";
import { lazyModule } from "../../substrate/require-esm.js";
import type { EngineContext } from "../context.js";
import type { WorkerPlace } from "./place.js";

// Loaded on first use: a use-case that only pastes into or looks at a pane loads the ssh connection, nothing more.
const remote = lazyModule<typeof RemoteWorkerModule>(import.meta.url, "../hosts/remote-worker.js");
const hostContainment = lazyModule<typeof HostContainmentModule>(import.meta.url, "../hosts/host-containment.js");
const launchEnv = lazyModule<typeof LaunchModule>(import.meta.url, "../workers/launch.js");

export function sshHostPlace(ctx: EngineContext, host: string): WorkerPlace {
  return {
    host,
    at: ` on host ${host}`,
    listingKey: host,
    watched: false,
    tmux: () => remoteTmux(connectHost(ctx, host)),
    listingIn: (_local, hosts) => hosts?.get(host),
    // An interactive `ssh -t … tmux attach` on the host's own server (never a local switch).
    attach: (session, windowId) => ({
      switched: false,
      command: remoteAttachArgv(connectHost(ctx, host), session, windowId),
    }),
    runsOn: (byConfig) => `host ${host}${byConfig ? " (worker.host in your config; --local runs it here)" : ""}`,
    assertSpawnable: (execution) => remote().assertRemoteSpawn(ctx, host, execution),
    reach: () => remote().reachHost(ctx, host),
    // The host's own task.md names the paths there (workspace, the source's byte-exact copy); no journal there yet.
    prepareWorkspace: (row, base, task, source) => void remote().prepareRemoteWorkspace(ctx, row, base, task, source),
    decideContainment: (execution, mode) => hostContainment().decideHostContainment(ctx, host, execution, mode),
    // Its network is decided now (a refusal before anything is written there); its argv is made on the host
    // (remote-worker.ts): the paths of this machine mean nothing there.
    prepareLaunch(row, execution, launch) {
      const relay = remote().remoteRelay(ctx, row, execution, launch);
      return () => {
        launchEnv().writeWorkerLaunchEnv(ctx, row.id, launch.generation, launch.env); // kept here too: a respawn reads its --env values back
        return remote().launchRemote(ctx, row, execution, launch, relay);
      };
    },
    liveChangedPaths: (row) => remote().remoteLivePaths(ctx, row),
    hasLiveChanges: (row) => remote().remoteLivePaths(ctx, row).length > 0,
    // Its workspace's bytes come home over ssh and get the same checks as a local capture.
    capture: (row, input) => remote().captureRemote(ctx, row, input),
    captureSource: (row) => ({ remote: remote().remoteSource(ctx, row) }),
    reset: (row, base) => remote().resetRemote(ctx, row, base),
    settle: (row, base, patch) => (remote().settleRemote(ctx, row, base, patch) ? "reset" : "kept-later-edits"),
    // Its tunnel, workspace, env file and sockets leave the host.
    retire: (row) => remote().retireRemote(ctx, row),
  };
}
