// A worker on a host: its launch there (workspace at its base, 0600 env, the door and its egress proxy forwarded over ssh, a
// window of Docket's own tmux server on the host), its change set, and its removal (places/ssh-host.ts is its port).
// Only the task, the launch env and the workspace reach the host; nothing else of the home is copied there.

import type { Worker } from "../../domain/workers/worker.js";
import type { LaunchExecution } from "../../domain/workers/execution.js";
import type { ChangeSet } from "../../domain/deliverables/deliverable.js";
import { AGENT_TRAITS, type WorkerAgent } from "../../domain/agents/traits.js";
import { refusal } from "../../domain/errors.js";
import { formatLaunchEnv } from "../../domain/workers/launch-env.js";
import { workerFilePath, WORKER_FILES } from "../../files/workers/worker-files.js";
import { ensurePrivateDir } from "../../files/private.js";
import {
  createRemoteWorkspace,
  deliverCommit,
  prepareHost,
  remoteChangeBytes,
  remoteChangedPaths,
  remoteHasTranscript,
  remoteReset,
  remoteSettle,
  remoteTmux,
  removeRemoteWorker,
  writeRemoteFile,
  type RemoteHost,
} from "../../substrate/ssh/host.js";
import { startTunnel, stopTunnel } from "../../substrate/ssh/tunnel.js";
import { ensureMaster } from "../../substrate/ssh/connection.js";
import type { EngineContext } from "../context.js";
import { connectHost, hostEntry } from "./connect.js";
import { docketBinPath, extensionPath, shimDirOf, workerArgv, wrapArgv, type PiPlace } from "../workers/launch.js";
import { readInputFile } from "../../files/input-file.js";
import { dirname, posix } from "node:path";
import { doorSocketFor } from "../door/door.js";
import { containedHostEnv, prepareOnHost } from "./host-containment.js";
import type { Containment } from "../workers/containment.js";
import { egressSocketPath, prepareLaunchNetwork } from "../workers/egress.js";
import { relayScriptPath } from "../../substrate/egress/relay-path.js";

const hostOf = (row: Pick<Worker, "execution">): string | undefined => row.execution?.host;

/** Variables of this machine that mean nothing (or the wrong thing) on the host: the host's own are used there. */
const LOCAL_ONLY = ["PATH", "HOME", "TMPDIR", "PI_CODING_AGENT_DIR", "DOCKET_TMUX_SOCKET"];

/** Checked before anything is written: the host is named in the user's config and the worker can run there. */
export function assertRemoteSpawn(
  ctx: EngineContext,
  host: string,
  execution: { agent: WorkerAgent; workspace: string; from: "--host" | "worker.host" },
): void {
  hostEntry(ctx, host);
  const instead =
    execution.from === "--host" ? "drop --host" : "give --local (your config's worker.host sends workers there)";
  if (!AGENT_TRAITS[execution.agent].runsOnHost) {
    throw refusal(
      "host-agent-unsupported",
      `a worker on a host runs pi or a command so far; ${execution.agent} workers run on this machine; nothing was started`,
      `${instead}, or use --agent pi or command`,
    );
  }
  if (execution.workspace !== "isolated")
    throw refusal(
      "host-needs-workspace",
      "a worker on a host needs its own workspace: a read-only kind shares your checkout, which is not there; nothing was started",
      `pick a writable kind with --as, or ${instead}`,
    );
}

/** The host answers (its master is made now): an unreachable host is refused before the ledger has a row for the worker. */
export function reachHost(ctx: EngineContext, host: string): void {
  ensureMaster(connectHost(ctx, host).target);
}

/**
 * Delivers the worker's base commit and makes its workspace on the host (spawn, after the base is made here); writes
 * its task there and, for Use → Worker / Implement, the reviewed source's exact bytes beside it.
 */
export function prepareRemoteWorkspace(
  ctx: EngineContext,
  row: Worker,
  base: string,
  task: (at: { workspace: string; source: string }) => string,
  source?: string,
): RemoteHost {
  const host = connectHost(ctx, hostOf(row)!);
  prepareHost(host);
  deliverCommit(host, row.projectRoot, base, row.id);
  createRemoteWorkspace(host, row.id, base);
  const sourceFile = posix.join(host.workerDir(row.id), WORKER_FILES.sourcePlan);
  if (source !== undefined) writeRemoteFile(host, sourceFile, source);
  writeRemoteFile(host, host.taskFile(row.id), task({ workspace: host.workspace(row.id), source: sourceFile }));
  return host;
}

type HostLaunch = { generation: number; env: Record<string, string>; session: string; containment: Containment };

/**
 * A contained launch's network on the host, decided before anything is written there (a refusal comes now): under
 * `allow`, the argv of its relay there, which reaches this door's proxy through a socket forwarded beside its door,
 * with the proxy variables put in its launch env; otherwise nothing.
 */
export function remoteRelay(ctx: EngineContext, row: Worker, execution: LaunchExecution, launch: HostLaunch): string[] {
  if (!launch.containment.contained) return [];
  const host = connectHost(ctx, execution.host!);
  const install = hostInstall(hostEntry(ctx, execution.host!).docketBin ?? docketBinPath());
  return prepareLaunchNetwork(ctx, { worker: row.id, generation: launch.generation }, execution, launch.env, {
    node: "node",
    relay: install.map(relayScriptPath()),
    socket: host.egressSocket(row.id, launch.generation),
  });
}

/**
 * One generation's launch on the host: env file (0600) there, its places made (contained: in the host's bubblewrap),
 * tunnel up (its egress socket too when `relay` runs), window on the host's tmux.
 */
export function launchRemote(
  ctx: EngineContext,
  row: Worker,
  execution: LaunchExecution,
  launch: HostLaunch,
  relay: readonly string[],
): { windowId: string; paneId: string } {
  const host = connectHost(ctx, execution.host!);
  const entry = hostEntry(ctx, execution.host!);
  const install = hostInstall(entry.docketBin ?? docketBinPath());
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(launch.env)) if (!LOCAL_ONLY.includes(k)) env[k] = v;
  env.DOCKET_DOOR = host.doorSocket(row.id, launch.generation);
  env.DOCKET_DOOR_FORWARDED = "1";
  env.DOCKET_NODE = "node"; // the host's own node, found on its PATH
  env.DOCKET_BIN = install.bin;
  if (launch.containment.contained) containedHostEnv(host, row.id, env);
  const steps = posix.join(host.workerDir(row.id), "steps.json");
  env.DOCKET_SHIM = shimDirOf(install.bin); // `docket` by name on the host too (the launch wrapper puts it on PATH)
  if (AGENT_TRAITS[execution.agent].runsScriptedModel && env.DOCKET_SCRIPTED_MODEL !== undefined) {
    // The scripted model's steps are a file here: its bytes travel over the channel, as the task does.
    writeRemoteFile(
      host,
      steps,
      readInputFile(env.DOCKET_SCRIPTED_MODEL, "the scripted model's steps file").toString("utf8"),
    );
    env.DOCKET_SCRIPTED_MODEL = steps;
  }
  const envFile = host.envFile(row.id);
  writeRemoteFile(
    host,
    envFile,
    formatLaunchEnv(
      env,
      `Docket launch environment of ${row.id} generation ${launch.generation} on host ${entry.name}: private to that process`,
    ),
  );
  const files = [host.taskFile(row.id), posix.join(host.workerDir(row.id), WORKER_FILES.sourcePlan), envFile, steps];
  const sandbox = prepareOnHost(ctx, host, launch.containment, { row, execution, installRoot: install.root, files });
  const tunnelDir = workerFilePath(ctx.home, row.id, WORKER_FILES.session); // the worker's private dir here
  ensurePrivateDir(tunnelDir);
  const sockets = [
    { remote: host.doorSocket(row.id, launch.generation), local: doorSocketFor(ctx, row.id, launch.generation) },
  ];
  if (relay.length > 0)
    sockets.push({ remote: host.egressSocket(row.id, launch.generation), local: egressSocketPath(ctx) });
  startTunnel(
    { target: host.target, sockets, pidFile: tunnelLease(ctx, row.id) },
    { env: sshEnv(ctx), logPath: `${tunnelLease(ctx, row.id)}.log` },
  );
  const argv = remoteArgv(ctx, host, install, row, execution, launch.generation);
  return remoteTmux(host).launchWindow({
    session: launch.session,
    name: row.id,
    argv: [...sandbox, ...wrapArgv({ envFile, cwd: host.workspace(row.id) }, [...relay, ...argv])],
  });
}

/** Docket's install on the host, from its `bin/docket.js`: pi's CLI and Docket's extensions are found under it. */
interface HostInstall {
  bin: string;
  root: string;
  /** A path of this machine's Docket install as it reads on the host (anything else unchanged). */
  map(word: string): string;
}

function hostInstall(bin: string): HostInstall {
  const root = posix.dirname(posix.dirname(bin));
  const local = dirname(dirname(docketBinPath()));
  return { bin, root, map: (w) => (w.startsWith(`${local}/`) ? posix.join(root, w.slice(local.length + 1)) : w) };
}

/** The agent's argv on the host: a command as given; pi from the host's Docket install, its session kept on the host. */
function remoteArgv(
  ctx: EngineContext,
  host: RemoteHost,
  install: HostInstall,
  row: Worker,
  execution: LaunchExecution,
  generation: number,
): string[] {
  if (AGENT_TRAITS[execution.agent].found !== "dependency")
    return workerArgv({ execution, workerDir: host.workerDir(row.id), worker: row.id, generation, piCli: () => "" });
  const piCli = ctx.agents.piCli();
  const at = piCli.lastIndexOf(PI_PACKAGE);
  if (at < 0)
    throw refusal(
      "host-pi-unknown",
      `pi's CLI here (${piCli}) is not inside a node_modules, so its path on host ${host.target.name} cannot be told`,
      "run pi workers on this machine",
    );
  const place: PiPlace = {
    node: "node",
    extension: install.map(extensionPath()),
    arg: install.map,
    hasTranscript: (dir) => remoteHasTranscript(host, dir),
  };
  return workerArgv({
    execution,
    workerDir: host.workerDir(row.id),
    worker: row.id,
    generation,
    piCli: () => posix.join(install.root, "node_modules", piCli.slice(at)),
    place,
  });
}

const PI_PACKAGE = "@mariozechner/pi-coding-agent/";

/** The keeper's lease file, in the worker's private session directory here. */
function tunnelLease(ctx: EngineContext, worker: string): string {
  return `${workerFilePath(ctx.home, worker, WORKER_FILES.session)}/tunnel.pid`;
}

/** What ssh needs of the human's environment: PATH, HOME (its ~/.ssh) and the agent socket; nothing else. */
function sshEnv(ctx: EngineContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ["PATH", "HOME", "LANG", "SSH_AUTH_SOCK", "USER", "LOGNAME"])
    if (ctx.env[k] !== undefined) env[k] = ctx.env[k];
  return env;
}

/** The change set of a worker on a host: its workspace's bytes fetched over ssh, checked here as a local capture. */
export function captureRemote(
  ctx: EngineContext,
  row: Worker,
  input: Parameters<EngineContext["git"]["freezeCapturedBytes"]>[0],
): ChangeSet {
  const host = connectHost(ctx, hostOf(row)!);
  return ctx.git.freezeCapturedBytes(input, remoteChangeBytes(host, row.id, input.base, input.maxPatchBytes));
}

/** Where a host worker's change bytes come from, for a capture in a thread (ssh's target and Docket's dir there). */
export function remoteSource(ctx: EngineContext, row: Worker): { target: RemoteHost["target"]; dir: string } {
  const host = connectHost(ctx, hostOf(row)!);
  return { target: host.target, dir: host.dir };
}

/** What a worker on a host changed against its base, read there (its workspace here is only the base). */
export function remoteLivePaths(ctx: EngineContext, row: Worker): string[] {
  if (row.base === null) return [];
  return remoteChangedPaths(connectHost(ctx, hostOf(row)!), row.id, row.base);
}

/** A promotion's workspace reset, on the host: only when its live tree is still base + the promoted patch. */
export function settleRemote(ctx: EngineContext, row: Worker, base: string, patch: string): boolean {
  return remoteSettle(connectHost(ctx, hostOf(row)!), row.id, base, patch);
}

/** Discard of a worker on a host: its workspace there goes back to its base. */
export function resetRemote(ctx: EngineContext, row: Worker, base: string): void {
  remoteReset(connectHost(ctx, hostOf(row)!), row.id, base);
}

/** Delete: the tunnel ends and the worker's directory, workspace and sockets leave the host. */
export function retireRemote(ctx: EngineContext, row: Worker): void {
  stopTunnel(tunnelLease(ctx, row.id));
  removeRemoteWorker(connectHost(ctx, hostOf(row)!), row.id);
}
