// Whether a worker runs contained, decided before anything is written, and the sandbox argv of one launch.
// `sandbox` config: auto contains wherever bubblewrap works, required refuses otherwise, off never (docs/containment.md).

import { doorPaths } from "../../files/door-files.js";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { AGENT_TRAITS, isMcpAgent } from "../../domain/agents/traits.js";
import { refusal } from "../../domain/errors.js";
import type { NetworkMode } from "../../domain/network-policy.js";
import type { LaunchExecution } from "../../domain/workers/execution.js";
import { planMounts, type DocketReach, type SandboxInput } from "../../domain/workers/sandbox-plan.js";
import type { Worker } from "../../domain/workers/worker.js";
import { ensurePrivateDir } from "../../files/private.js";
import { pathExists } from "../../files/probe.js";
import { WORKER_FILES, workerFilePath, workerPath } from "../../files/workers/worker-files.js";
import { detectSandbox, sandboxArgv, type SandboxSupport } from "../../substrate/sandbox/bwrap.js";
import type { EngineContext } from "../context.js";
import { placeOf } from "../places/place.js";
import { agentConfigDir } from "./agents.js";
import { egressSocketPath, launchNetworkMode } from "./egress.js";
import { SCRIPTED_MODEL } from "./scripted.js";

export type Containment = { contained: true; bwrap: string; network: NetworkMode } | { contained: false; why: string };

/** The sandbox as this machine offers it, with the human's PATH (never a worker's). */
export function sandboxSupport(ctx: EngineContext): SandboxSupport {
  return detectSandbox(ctx.env.PATH);
}

/** Refused with the doctor's reason: `required` and no sandbox here. */
export function sandboxUnavailable(reason: string, fix: string): never {
  throw refusal(
    "sandbox-unavailable",
    `sandbox is "required" but workers cannot be contained here: ${reason}; nothing was started`,
    `${fix}; then check with \`docket doctor\``,
  );
}

/**
 * Whether this launch is contained: `off` never; `auto` when bubblewrap works and the workspace can be shown read-only
 * where it must; `required` the same or a named refusal (nothing is started).
 */
export function decideContainment(
  ctx: EngineContext,
  execution: Pick<LaunchExecution, "workspace" | "readOnly" | "host" | "kind">,
): Containment {
  const { mode } = ctx.config().sandbox;
  if (mode === "off")
    return {
      contained: false,
      why: ctx.env.DOCKET_SANDBOX === "off" ? "DOCKET_SANDBOX=off" : "sandbox is off in your config",
    };
  // Where it runs says what containment it offers: a host's is the host's own bubblewrap (docs/remote-hosts.md).
  return placeOf(ctx, { execution }).decideContainment(execution, mode);
}

/** Containment on this machine: bubblewrap here, and a writable worker kept off the human's checkout. */
export function decideLocalContainment(
  ctx: EngineContext,
  execution: Pick<LaunchExecution, "workspace" | "readOnly" | "host" | "kind">,
  mode: "auto" | "required",
): Containment {
  const support = sandboxSupport(ctx);
  if (!support.ok) {
    if (mode === "required") sandboxUnavailable(support.reason, support.fix);
    return { contained: false, why: support.reason };
  }
  if (execution.workspace === "shared" && !execution.readOnly) {
    // A writable worker in the human's own checkout cannot be kept off that checkout.
    const why =
      "a writable worker without its own worktree (--no-worktree) works in your checkout, which containment keeps read-only";
    if (mode === "required")
      throw refusal(
        "sandbox-shared-writable",
        `sandbox is "required" but ${why}; nothing was started`,
        "spawn it with its own worktree (drop --no-worktree) or use a read-only kind",
      );
    return { contained: false, why };
  }
  return { contained: true, bwrap: support.bwrap, network: launchNetworkMode(ctx, execution) };
}

/** The spawn summary's line. */
export function containmentLine(c: Containment): string {
  return c.contained
    ? `Contained: yes (bubblewrap: read-only system, own workspace, no other worker, no secrets; ${networkWords(c.network)})`
    : `Contained: no (${c.why})`;
}

/** The spawn line's words for a contained worker's network (docs/containment.md). */
export function networkWords(mode: NetworkMode): string {
  if (mode === "none") return "network: none";
  if (mode === "open") return "network: OPEN, the machine's whole network";
  return "network: its model API and sandbox.allow only, through Docket's proxy";
}

/**
 * Where the worker reaches Docket: the door's directory of worker sockets and its own task files, nothing else of the
 * home (docs/decisions/containment.md). The door's control directory (control socket, supervisor, door.env, state, log)
 * is not shown.
 */
export function docketReach(ctx: EngineContext, worker: string): DocketReach {
  const door = doorPaths(ctx.home.root);
  const files = [WORKER_FILES.task, WORKER_FILES.sourcePlan, WORKER_FILES.launchEnv].map((f) =>
    workerPath(ctx.home, worker, f),
  );
  return { home: ctx.home.root, doorDir: door.dir, files };
}

/** The sockets of the human's session that sit outside the default hidden places. */
function sessionSockets(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  const socket = env.DOCKET_TMUX_SOCKET;
  if (socket?.includes("/")) out.push(dirname(resolve(socket)));
  if (env.TMUX_TMPDIR) out.push(resolve(env.TMUX_TMPDIR));
  if (env.SSH_AUTH_SOCK) out.push(dirname(resolve(env.SSH_AUTH_SOCK)));
  if (env.XDG_RUNTIME_DIR) out.push(resolve(env.XDG_RUNTIME_DIR));
  if (env.GNUPGHOME) out.push(resolve(env.GNUPGHOME));
  return out;
}

/** An isolated worktree's git as a contained worker gets it: the repository read-only, its own git dir writable. */
function containedGit(
  ctx: EngineContext,
  row: Worker,
): { commonDir: string; adminDir: string; privateGitDir: string } | undefined {
  if (row.workspaceMode !== "isolated") return undefined;
  const commonDir = ctx.git.repositoryKey(row.projectRoot);
  const adminDir = join(commonDir, "worktrees", `docket-${row.id}`); // the admin name spawn gave it, never read from the workspace
  return pathExists(adminDir)
    ? { commonDir, adminDir, privateGitDir: workerPath(ctx.home, row.id, WORKER_FILES.git) }
    : undefined;
}

/**
 * Makes the worker's own git dir (once; a later generation keeps its commits) and points its git there (GIT_DIR), so
 * it commits on its own HEAD with the repository's objects as a read-only alternate: nothing of your .git is writable.
 */
export function containGit(ctx: EngineContext, row: Worker, env: Record<string, string>): void {
  const git = containedGit(ctx, row);
  if (!git) return;
  ctx.git.preparePrivateGitDir(git.privateGitDir, row.workspace, {
    commonDir: git.commonDir,
    adminDir: git.adminDir,
    refs: ctx.git.repositoryRefs(row.projectRoot),
  });
  env.GIT_DIR = git.privateGitDir;
}

/** The worker's own TMPDIR, made before launch (0700). */
export function scratchDir(ctx: EngineContext, worker: string): string {
  const path = workerFilePath(ctx.home, worker, WORKER_FILES.scratch);
  ensurePrivateDir(path);
  return path;
}

/** Everything one contained launch sees, as the pure plan's input. */
export function sandboxInput(
  ctx: EngineContext,
  row: Worker,
  execution: LaunchExecution,
  where: { scratch: string; docketBin: string; env: Record<string, string> },
): SandboxInput {
  const config = ctx.config().sandbox;
  const workerDir = ctx.home.workerDir(row.id);
  const agentWritable: string[] = [];
  const agentReadOnly: string[] = [];
  const hideExtra = sessionSockets(ctx.env);
  const binds = AGENT_TRAITS[execution.agent].sandboxBinds;
  if (binds === "pi-agent-dir") {
    const agentDir = ctx.env.PI_CODING_AGENT_DIR
      ? resolve(ctx.env.PI_CODING_AGENT_DIR)
      : join(homedir(), ".pi", "agent");
    agentReadOnly.push(agentDir); // pi's auth.json and models.json: the model credentials it needs
    hideExtra.push(join(agentDir, "sessions")); // the human's own pi conversations
    agentWritable.push(join(workerDir, WORKER_FILES.session));
  } else if (binds === "config-home" && isMcpAgent(execution.agent))
    agentWritable.push(agentConfigDir(workerDir, execution.agent));
  const git = containedGit(ctx, row);
  const install = resolve(where.docketBin, "..", "..");
  return {
    network: launchNetworkMode(ctx, execution),
    egressSocket: egressSocketPath(ctx),
    readOnly: execution.readOnly,
    checkout: row.projectRoot,
    workspace: row.workspace,
    ...(git ? { git: { commonDir: git.commonDir, privateGitDir: git.privateGitDir } } : {}),
    docket: docketReach(ctx, row.id),
    scratch: where.scratch,
    agentWritable,
    agentReadOnly,
    exposeReadOnly: [
      install,
      resolve(process.execPath, "..", ".."),
      ...scriptedSteps(execution, where.env),
      ...config.readOnlyPaths,
    ],
    homes: [...new Set([ctx.env.HOME, homedir()].filter((h): h is string => Boolean(h)).map((h) => resolve(h)))],
    hideExtra,
  };
}

/** A scripted pi worker's steps file (`spawn --scripted`, the demo): the human named it, so the worker may read it. */
function scriptedSteps(execution: LaunchExecution, env: Record<string, string>): string[] {
  const steps = env.DOCKET_SCRIPTED_MODEL;
  return AGENT_TRAITS[execution.agent].runsScriptedModel &&
    execution.model === SCRIPTED_MODEL &&
    steps !== undefined &&
    isAbsolute(steps)
    ? [steps]
    : [];
}

/** The bwrap argv prefix (`bwrap … --`) that contains one launch. */
export function containArgv(bwrap: string, input: SandboxInput): string[] {
  return sandboxArgv(bwrap, planMounts(input), input.network);
}
