// Containment on a host: a worker there runs in the host's own bubblewrap when it has one, planned by the
// same pure plan as here — its workspace, own git and scratch writable; Docket's host directory (every other worker's
// files, launch env and door sockets), the host user's secrets and the rest of /tmp hidden; its own network namespace,
// left only through this machine's egress proxy.

import { posix } from "node:path";
import { AGENT_TRAITS } from "../../domain/agents/traits.js";
import { refusal } from "../../domain/errors.js";
import type { NetworkMode } from "../../domain/network-policy.js";
import type { LaunchExecution } from "../../domain/workers/execution.js";
import { planMounts, type SandboxInput } from "../../domain/workers/sandbox-plan.js";
import type { Worker } from "../../domain/workers/worker.js";
import { WORKER_FILES } from "../../files/workers/worker-files.js";
import type { RemoteHost } from "../../substrate/ssh/host.js";
import {
  hostSandboxArgv,
  prepareHostLaunch,
  probeHostSandbox,
  type HostSandbox,
} from "../../substrate/ssh/host-sandbox.js";
import type { EngineContext } from "../context.js";
import type { Containment } from "../workers/containment.js";
import { connectHost } from "./connect.js";
import { launchNetworkMode } from "../workers/egress.js";

const asked = new Map<string, HostSandbox>();

/** What the host says about bubblewrap and its account, asked once per process and host. */
function hostSandbox(ctx: EngineContext, name: string): HostSandbox {
  const host = connectHost(ctx, name);
  const key = `${host.target.destination}\u0000${host.target.sshConfig ?? ""}`;
  let known = asked.get(key);
  if (known === undefined) asked.set(key, (known = probeHostSandbox(host.target)));
  return known;
}

/**
 * `auto` contains wherever the host's bubblewrap works and says why not otherwise; `required` refuses by name. Its
 * network is chosen as here: its own namespace there, reaching out only through this door's proxy (forwarded).
 */
export function decideHostContainment(
  ctx: EngineContext,
  name: string,
  execution: Pick<LaunchExecution, "kind">,
  mode: "auto" | "required",
): Containment {
  const { support } = hostSandbox(ctx, name);
  if (support.ok) return { contained: true, bwrap: support.bwrap, network: launchNetworkMode(ctx, execution) };
  const why = `host ${name} cannot contain workers: ${support.reason}`;
  if (mode === "required")
    throw refusal(
      "host-sandbox-unavailable",
      `sandbox is "required" but ${why}; nothing was started`,
      `${support.fix}; then check with \`docket hosts check ${name}\``,
    );
  return { contained: false, why };
}

/** A contained worker's own places on the host, beside its workspace in its directory there. */
function ownPlaces(host: RemoteHost, worker: string) {
  const dir = host.workerDir(worker);
  return {
    scratch: posix.join(dir, WORKER_FILES.scratch),
    privateGitDir: posix.join(dir, WORKER_FILES.git),
    session: posix.join(dir, WORKER_FILES.session),
  };
}

/**
 * The contained worker's environment on the host: its own TMPDIR and caches there, and its git pointed at its own git
 * dir (HEAD, index, new objects) over the host's repository as a read-only alternate.
 */
export function containedHostEnv(host: RemoteHost, worker: string, env: Record<string, string>): void {
  const own = ownPlaces(host, worker);
  env.TMPDIR = own.scratch;
  env.XDG_CACHE_HOME = posix.join(own.scratch, ".cache");
  // biome-ignore lint/complexity/useLiteralKeys: an environment name, not a field (the engine reads no snake_case field)
  env["npm_config_cache"] = posix.join(own.scratch, ".npm");
  env.GIT_DIR = own.privateGitDir;
}

/** What one contained launch on the host sees, as the pure plan's input. */
function hostSandboxInput(
  host: RemoteHost,
  facts: HostSandbox,
  network: NetworkMode,
  input: { row: Worker; execution: LaunchExecution; installRoot: string; files: readonly string[] },
): SandboxInput {
  const { row, execution } = input;
  const own = ownPlaces(host, row.id);
  const pi = AGENT_TRAITS[execution.agent].sandboxBinds === "pi-agent-dir";
  const piAgentDir = facts.piAgentDir ?? posix.join(facts.home, ".pi", "agent");
  return {
    network,
    readOnly: execution.readOnly,
    workspace: host.workspace(row.id),
    git: { commonDir: host.repo, privateGitDir: own.privateGitDir },
    // Docket's whole directory on the host is hidden; the worker's own door sockets (its egress socket among them)
    // and files are shown read-only.
    docket: { home: host.dir, doorDir: host.doorDir(row.id), files: input.files },
    scratch: own.scratch,
    agentWritable: pi ? [own.session] : [],
    agentReadOnly: pi ? [piAgentDir] : [],
    exposeReadOnly: [input.installRoot],
    homes: facts.home.startsWith("/") ? [facts.home] : [],
    // Every worktree's admin dir (HEAD, index) of the shared repository, and the host user's own pi conversations.
    hideExtra: [posix.join(host.repo, "worktrees"), ...(pi ? [posix.join(piAgentDir, "sessions")] : [])],
  };
}

/**
 * Makes the launch's places on the host (the worker's door directory; contained, its scratch, agent state and own git
 * too) and returns the `bwrap … --` prefix of a contained launch, planned from what each path is on the host.
 */
export function prepareOnHost(
  ctx: EngineContext,
  host: RemoteHost,
  containment: Containment,
  input: { row: Worker; execution: LaunchExecution; installRoot: string; files: readonly string[] },
): string[] {
  const { row } = input;
  if (!containment.contained) {
    prepareHostLaunch(host, row.id, undefined, []);
    return [];
  }
  const facts = hostSandbox(ctx, input.execution.host!);
  const plan = hostSandboxInput(host, facts, containment.network, input);
  const mounts = planMounts(plan);
  const own = ownPlaces(host, row.id);
  const known = prepareHostLaunch(
    host,
    row.id,
    {
      workspace: plan.workspace,
      privateGitDir: own.privateGitDir,
      scratch: own.scratch,
      agentDirs: [...plan.agentWritable, ...plan.agentReadOnly],
    },
    [...new Set(mounts.map((m) => m.path))],
  );
  return hostSandboxArgv(containment.bwrap, mounts, plan.network, known);
}
