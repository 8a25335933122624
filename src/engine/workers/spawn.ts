// `docket spawn`: resolve the policy once, record the worker (starting) before anything runs, make its workspace
// and task.md, launch it in tmux, then dispatch its items. Human-started only (ADR-0004, DESIGN §4).
// A spawn completes or leaves no trace: a failure marks the row failed with the reason and removes what it made.

import type { Worker } from "../../domain/workers/worker.js";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { DocketError, refusal, usageError, validationError } from "../../domain/errors.js";
import { confirmationDeclined, resolveConfirmation } from "../../domain/review/confirmation.js";
import type { SourceHandoff } from "../../domain/deliverables/deliverable.js";
import { isMcpAgent, resolveSpawnPolicy, type ResolvedExecution, type WorkerAgent } from "../../domain/workers/spawn-policy.js";
import type { WorkerKind } from "../../domain/workers/kinds.js";
import type { DocketConfig } from "../../domain/config.js";
import { renderTaskBrief, type TaskBriefHandoff } from "../../domain/workers/task-brief.js";
import { claimFile } from "../../files/atomic.js";
import { ensurePrivateDir } from "../../files/private.js";
import { pathExists } from "../../files/probe.js";
import { WORKER_FILES, removeWorkerDir, workerFilePath, workerPath, writeWorkerFile } from "../../files/workers/worker-files.js";
import { transition } from "../../domain/workers/lifecycle.js";
import { setBudget } from "../../ledger/workers/spend.js";
import { resolveBudget } from "./budget.js";
import { applyLifecycle, getWorker, insertWorker, lifecycleRowOf, requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import type { IsolatedWorkspace, Serialize } from "../../substrate/git/worktree.js";
import type { ModelListing } from "../../substrate/agents/pi.js";
import { journalFile } from "../../files/talk/journal-file.js";
import { formatAge } from "../../domain/clock.js";
import type { EngineContext } from "../context.js";
import { dispatchItems } from "../work/dispatch.js";
import { kindRegistry, trustedKindChoice } from "./kinds.js";
import { assertCopyableProject } from "./copy-workspace.js";
import { assertFleetRoom, takePaneSnapshot } from "./fleet.js";
import { modelListingLock, worktreeLock } from "./locks.js";
import { buildWorkerEnv, docketBinPath, launchCommand, newRunToken, previewCommand, tmuxSessionName, wrapArgv, writeWorkerLaunchEnv } from "./launch.js";
import { containArgv, containGit, containmentLine, decideContainment, sandboxInput, scratchDir, type Containment } from "./containment.js";
import type { LaunchExecution, StoredExecution } from "../../domain/workers/execution.js";
import { requireMcpAgent } from "./agents.js";
import { ensureDoor } from "../door/door.js";
import { snapshotCheckout } from "./kind-integrity.js";
import { assertHuman } from "../authority.js";
import { assertRemoteSpawn, hostPanes, launchRemote, reachHost, prepareRemoteWorkspace, retireRemote, tmuxFor } from "../hosts/remote-worker.js";
import type { Tmux } from "../../substrate/tmux.js";

export interface SpawnHandoff {
  /** What task.md says about the reviewed source. */
  brief: TaskBriefHandoff;
  /** Written byte-exact to `fleet/<id>/source-deliverable.md` before launch. */
  sourceBody: string;
  /** Provenance stored on the worker row (`source_handoff`). */
  record: SourceHandoff;
}

export interface SpawnInput {
  task: string;
  agent?: WorkerAgent;
  /** The shell command of a `--agent command` worker. */
  command?: string;
  kind?: string;
  model?: string;
  thinking?: string;
  seedFile?: string;
  fresh?: boolean;
  worktree?: boolean;
  items?: readonly string[];
  env?: Record<string, string>;
  /** pi arguments of this worker after the configured ones (`--scripted` adds its extension); kept for respawn. */
  piArgs?: readonly string[];
  yes?: boolean;
  /** What set `yes` when the human did not type `--yes` (see SpawnPolicyInput.yesFrom). */
  yesFrom?: string;
  interactive?: boolean;
  /** Asked only when the policy wants a confirmation, the caller is interactive and `--yes` was not given. */
  confirm?: (execution: ResolvedExecution) => Promise<boolean>;
  /** The parent's model/thinking/session when spawned from inside pi; otherwise pi's configured defaults. */
  parent?: { model?: string; thinking?: string; sessionFile?: string };
  handoff?: SpawnHandoff;
  /** Stop the worker's agent once its recorded cost reaches this many USD (default: config worker.budgetUsd; 0 none). */
  budgetUsd?: number;
  /** Run the worker on this host of the user's config, over ssh (issue 26); default: the user config's worker.host. */
  host?: string;
  /** Run it on this machine even when the user config names a worker.host. */
  local?: boolean;
}

export interface SpawnResult {
  worker: string;
  generation: number;
  kind: string;
  execution: { model: string | null; thinking: string; context: "fresh" | "seeded"; workspace: "isolated" | "shared" };
  summary: string[];
  dispatch?: { dispatch: string; bindings: { item: string; binding: string; acceptedRevision: number }[] };
}

function withSidecarPath(h: SpawnHandoff, sidecarPath: string): SpawnHandoff {
  return { ...h, record: { ...h.record, sidecarPath }, brief: { ...h.brief, sidecarPath } };
}

export interface SpawnPlan {
  dryRun: true;
  agent: WorkerAgent;
  kind: string;
  summary: string[];
  /** The argv the worker's window would run (inside Docket's exit wrapper). */
  command: string[];
}

interface ResolvedSpawn {
  task: string;
  config: DocketConfig;
  resolved: ResolvedExecution;
  kind: WorkerKind;
  defaultKind: ReturnType<typeof trustedKindChoice>;
  execution: StoredExecution;
  /** pi's model listing the policy was checked against (pi workers only). */
  listing?: ModelListing;
  containment: Containment;
}

/** Everything decided before anything is written: the policy, the stored execution, and the agent found on disk. */
async function resolveSpawn(ctx: EngineContext, input: SpawnInput): Promise<ResolvedSpawn> {
  assertHuman(ctx, "spawn");
  const task = input.task.trim();
  if (!task) throw validationError("empty-task", "a worker needs a task; say what it should do", '`docket spawn "<task>"`');
  const config = ctx.config();
  const agent = input.agent ?? config.worker.agent;
  if (agent === "command" && !input.command?.trim()) throw usageError("missing-cmd", "--agent command needs --cmd '<shell command>'");
  if (agent !== "command" && input.command !== undefined) throw usageError("cmd-needs-command-agent", "--cmd is only for --agent command");
  if (isMcpAgent(agent)) requireMcpAgent(ctx.agents, agent, ctx.env.PATH);
  const registry = kindRegistry(ctx);
  const asked = input.kind?.trim().toLowerCase();
  const skipped = asked && !registry.kinds.has(asked) ? registry.diagnostics.find((d) => d.message.startsWith(`project kind ${asked} would `)) : undefined;
  if (skipped) {
    throw refusal("kind-widens", `kind "${asked}" was not loaded: ${skipped.path}: ${skipped.message}; nothing was started`, "run `docket kinds` to see the kinds that loaded, or put the kind in your own kinds folder if you trust it");
  }
  const defaultKind = trustedKindChoice(ctx, registry.kinds, "defaultKind");
  const piArgs = [...ctx.agents.piExtraArgs(config.pi.extraArgs, ctx.env.DOCKET_PI_ARGS), ...(input.piArgs ?? [])];
  const listing = agent === "pi" ? availableModels(ctx, piArgs) : undefined;
  const resolved = resolveSpawnPolicy({
    agent,
    kindFlag: input.kind,
    modelFlag: input.model,
    thinkingFlag: input.thinking,
    seedFile: input.seedFile,
    fresh: input.fresh,
    worktree: input.worktree,
    handoff: input.handoff !== undefined,
    interactive: Boolean(input.interactive),
    yes: Boolean(input.yes),
    ...(input.yes && input.yesFrom !== undefined ? { yesFrom: input.yesFrom } : {}),
    config: { defaultKind: defaultKind.name, parentSeedPolicy: config.worker.parentSeedPolicy },
    kinds: registry.kinds,
    parent: input.parent ?? ctx.agents.piDefaults(ctx.env, homedir()),
    availableModels: listing?.models ?? [],
  });
  const kind = registry.kinds.get(resolved.kind);
  if (!kind) throw validationError("unknown-kind", `kind "${resolved.kind}" is not defined; run \`docket kinds\``);
  const host = input.local ? undefined : input.host ?? config.worker.host;
  const containment = decideContainment(ctx, { ...resolved, ...(host !== undefined ? { host } : {}) }); // `required` and no sandbox: refused before anything is written
  if (config.worker.unattended && isMcpAgent(agent) && !containment.contained) {
    throw refusal(
      "unattended-needs-sandbox",
      `worker.unattended turns ${agent}'s permission prompts off, which Docket allows only inside its sandbox, and this worker would not be contained (${containment.why}); nothing was started`,
      "set \"sandbox\": \"auto\" (or \"required\") in your config on a machine where `docket doctor` says containment works, or set worker.unattended to false",
    );
  }
  if (resolved.workspace === "isolated") assertCopyableProject(ctx, ctx.projectRoot()); // outside git it is a copy
  const subdir = relative(ctx.projectRoot(), ctx.cwd);
  const execution: StoredExecution = {
    ...resolved,
    piArgs: agent === "pi" ? piArgs : [],
    ...(agent === "command" ? { command: input.command } : {}),
    ...(isMcpAgent(agent) ? { agentArgs: config[agent].extraArgs } : {}),
    subdir: subdir.startsWith("..") ? "" : subdir,
    ...(host !== undefined ? { host } : {}),
  };
  if (host !== undefined) assertRemoteSpawn(ctx, host, { agent, workspace: resolved.workspace, from: input.host !== undefined ? "--host" : "worker.host" });
  return { task, config, resolved, kind, defaultKind, execution, listing, containment };
}

/** `docket spawn --dry-run`: the same resolution, and the command the window would run; nothing is written or started. */
export async function planSpawn(ctx: EngineContext, input: SpawnInput): Promise<SpawnPlan> {
  const { resolved, execution } = await resolveSpawn(ctx, { ...input, interactive: false });
  return { dryRun: true, agent: resolved.agent, kind: resolved.kind, summary: [...resolved.summary, whereLine(execution, input)], command: previewCommand(ctx, execution) };
}

/** Where the worker runs, and when a config default chose it, how to run it here instead. */
function whereLine(execution: StoredExecution, input: SpawnInput): string {
  if (execution.host === undefined) return "Runs on: this machine";
  return `Runs on: host ${execution.host}${input.host === undefined ? " (worker.host in your config; --local runs it here)" : ""}`;
}

export async function spawnWorker(ctx: EngineContext, input: SpawnInput): Promise<SpawnResult> {
  const { task, config, resolved, kind, defaultKind, execution, listing, containment } = await resolveSpawn(ctx, input);
  const step = resolveConfirmation("spawn", { yes: Boolean(input.yes), interactive: Boolean(input.interactive && input.confirm), needed: resolved.confirm.needed });
  if (step === "ask" && !(await input.confirm!(resolved))) throw confirmationDeclined("spawn", task);
  const agent = resolved.agent;
  const budget = resolveBudget(agent, input.budgetUsd ?? (config.budgetUsd > 0 ? config.budgetUsd : undefined));
  const projectRoot = ctx.projectRoot();
  const runToken = newRunToken();
  const sidecarOf = (id: string) => workerPath(ctx.home, id, WORKER_FILES.sourcePlan);
  const panes = takePaneSnapshot(ctx.tmux, ctx.clock.now(), { db: ctx.db, listHost: (h) => hostPanes(ctx, h) });
  if (execution.host !== undefined) reachHost(ctx, execution.host); // a dead host: a named refusal, and no row written
  const worker = ctx.commands.run("worker.spawn", { task }, (tx) => {
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
      workspace: (id) => (resolved.workspace === "isolated" ? workerPath(ctx.home, id, WORKER_FILES.workspace) : projectRoot),
      workspaceMode: resolved.workspace,
      runToken,
      spawnerPid: process.pid,
    });
    if (budget !== undefined) setBudget(tx, id, budget);
    // The sidecar path is known only once the id is: provenance names the file this worker actually gets.
    if (input.handoff) updateWorker(tx, id, { sourceHandoff: withSidecarPath(input.handoff, sidecarOf(id)).record });
    return id;
  }).result;
  const handoff = input.handoff && withSidecarPath(input.handoff, sidecarOf(worker));

  const summary = [...resolved.summary, containmentLine(containment), whereLine(execution, input), ...defaultKind.warnings.map((w) => `warning: ${w}`)];
  if (listing?.cachedAt !== undefined) summary.push(`Models: from Docket's cache of pi's listing (${formatAge(new Date(listing.cachedAt).toISOString(), ctx.clock.nowMs())} old)`);
  const serialize = worktreeLock(ctx, projectRoot);
  let workspace: IsolatedWorkspace | undefined;
  let stage: "dispatch" | "workspace" | "remote" = "dispatch";
  try {
    let dispatch: SpawnResult["dispatch"];
    if (input.items && input.items.length > 0) dispatch = dispatchItems(ctx, { worker, items: input.items });
    stage = "workspace";
    ensurePrivateDir(workerFilePath(ctx.home, worker, WORKER_FILES.session));
    if (handoff && !claimFile(handoff.record.sidecarPath, handoff.sourceBody)) {
      throw refusal("handoff-claimed", `${worker}/source-deliverable.md already exists; refusing to overwrite reviewed input`);
    }
    const row = requireWorker(ctx.db, worker);
    if (resolved.workspace === "isolated") {
      workspace = ctx.git.createIsolatedWorkspace({ root: projectRoot, target: row.workspace, exclude: [ctx.home.root], adminName: `docket-${worker}`, serialize });
      summary.push(...workspace.notes);
      const ws = workspace;
      ctx.commands.run("worker.workspace", { worker }, (tx) => updateWorker(tx, worker, { base: ws.base, baseHead: ws.baseHead }));
    }
    const brief = renderTaskBrief({
      workerId: worker, task, kind, workspace: row.workspace, workspaceMode: resolved.workspace, handoff: handoff?.brief,
      journal: journalFile(ctx.home, row.projectRoot),
    });
    writeWorkerFile(ctx.home, worker, WORKER_FILES.task, brief);
    if (execution.host !== undefined && workspace) {
      stage = "remote";
      // The host's own task.md names the paths there (workspace, the source's byte-exact copy); no journal there yet.
      prepareRemoteWorkspace(ctx, row, workspace.base, (at) => renderTaskBrief({
        workerId: worker, task, kind, workspace: at.workspace, workspaceMode: resolved.workspace,
        handoff: handoff && { ...handoff.brief, sidecarPath: at.source },
      }), handoff?.sourceBody);
    }
    if (resolved.readOnly) snapshotCheckout(ctx, row); // its card later says whether the checkout changed during its run
    launchInto(ctx, row, execution, { generation: 1, runToken, env: input.env ?? {} });
    return {
      worker,
      generation: 1,
      kind: resolved.kind,
      execution: { model: resolved.model, thinking: resolved.thinking, context: resolved.context, workspace: resolved.workspace },
      summary,
      ...(dispatch ? { dispatch } : {}),
    };
  } catch (error) {
    // A refused dispatch means nothing was started: the row is retired unseen (its w<N> is still never reused).
    if (stage === "remote") {
      try {
        retireRemote(ctx, requireWorker(ctx.db, worker));
      } catch {
        // The host went away mid-spawn: its half-made workspace stays under the host's directory until a later delete there.
      }
    }
    abandonSpawn(ctx, worker, error, { retire: stage === "dispatch", workspace, serialize });
    throw error;
  }
}

/** Marks a spawn that failed part-way failed with its reason, then removes its workspace and directory. */
function abandonSpawn(ctx: EngineContext, worker: string, error: unknown, made: { retire: boolean; workspace?: IsolatedWorkspace; serialize: Serialize }): void {
  const message = error instanceof Error ? error.message : String(error);
  try {
    ctx.commands.run("worker.spawn-failed", { worker }, (tx) => {
      const row = getWorker(tx.db, worker);
      if (row) applyLifecycle(tx, worker, transition(lifecycleRowOf(row), { kind: "spawn-failed", reason: message, retire: made.retire }, tx.now));
    });
  } catch {
    // The ledger stayed locked past busy_timeout: the row is left starting without a window, and the next
    // `docket ls` reconciles it (failed) once this process is gone. The caller still reports the first error.
  } finally {
    try {
      if (made.workspace) ctx.git.removeWorkspace({ root: ctx.projectRoot(), path: made.workspace.path, method: made.workspace.method, serialize: made.serialize });
    } catch {
      // The worktree lock could not be had in time: the worktree stays registered until `git worktree prune`.
    }
    removeWorkerDir(ctx.home, worker);
  }
}

/**
 * Starts one generation in the worker's window and records the window and pane it got. Every agent launches
 * through here: its environment goes into the worker's 0600 env file, never onto tmux's command line or session.
 */
export function launchInto(
  ctx: EngineContext,
  row: Worker,
  execution: LaunchExecution,
  launch: { generation: number; runToken: string; env: Record<string, string> },
): { windowId: string; paneId: string } {
  const tmux = ctx.tmux;
  const session = tmuxSessionName(ctx);
  const cwd = execution.subdir && pathExists(join(row.workspace, execution.subdir)) ? join(row.workspace, execution.subdir) : row.workspace;
  const containment = decideContainment(ctx, execution);
  const env = buildWorkerEnv(ctx, { worker: row.id, generation: launch.generation, runToken: launch.runToken }, launch.env);
  const scratch = containment.contained ? containedEnv(ctx, row, execution, env) : undefined;
  const unattended = containment.contained && ctx.config().worker.unattended;
  // A worker on a host gets its argv there (remote-worker.ts): the paths of this machine mean nothing on the host.
  const command = execution.host === undefined ? launchCommand(ctx, { row, execution, generation: launch.generation, cwd, env, unattended, contained: containment.contained }) : undefined;
  let ids: { windowId: string; paneId: string };
  try {
    ensureDoor(ctx); // the worker's first call waits (bounded) for its socket; the door is up well before that
    if (command === undefined) {
      writeWorkerLaunchEnv(ctx, row.id, launch.generation, env); // kept here too: a respawn reads its --env values back from it
      ids = launchRemote(ctx, row, execution, { generation: launch.generation, env, session });
    } else {
      const envFile = writeWorkerLaunchEnv(ctx, row.id, launch.generation, { ...env, ...command.env });
      const wrapped = wrapArgv({ envFile, cwd }, command.argv);
      const argv = containment.contained && scratch ? [...containArgv(containment.bwrap, sandboxInput(ctx, row, execution, { scratch, docketBin: docketBinPath(), env })), ...wrapped] : wrapped;
      ids = tmux.launchWindow({ session, name: row.id, argv });
    }
  } catch (error) {
    if (error instanceof DocketError && error.code === "host-unreachable") throw error;
    throw new DocketError("refusal", "launch-failed", `could not start ${row.id} in tmux: ${(error as Error).message}`, { cause: error });
  }
  const remote = execution.host !== undefined;
  return recordLaunch(ctx, row, launch.generation, session, ids, containment.contained, remote ? tmuxFor(ctx, row) : tmux);
}

/** Records the window a launch got; a launch given up meanwhile has its window closed (nothing runs unrecorded). */
function recordLaunch(
  ctx: EngineContext, row: Worker, generation: number, session: string, ids: { windowId: string; paneId: string }, contained: boolean, tmux: Tmux,
): { windowId: string; paneId: string } {
  const launch = { generation };
  const containment = { contained };
  try {
    ctx.commands.run("worker.launched", { worker: row.id, generation: launch.generation }, (tx) => {
      const now = getWorker(tx.db, row.id);
      // Closed without a process exit (reconciled as stalled, or deleted) or respawned meanwhile: this launch is over.
      if (!now || now.generation !== launch.generation || (now.exited && now.exitCode === null)) {
        throw refusal("launch-abandoned", `${row.id} generation ${launch.generation} was given up while it started${now?.lastError ? ` (${now.lastError})` : ""}; its window was closed`);
      }
      applyLifecycle(tx, row.id, transition(lifecycleRowOf(now), { kind: "launched", session, windowId: ids.windowId, paneId: ids.paneId }, tx.now));
      if (now.contained !== containment.contained) updateWorker(tx, row.id, { contained: containment.contained });
    });
  } catch (error) {
    tmux.killWindow(ids.windowId); // nothing may run that the ledger does not point at
    throw error;
  }
  return ids;
}

/** A contained worker's environment: its own TMPDIR, and no name of the tmux server (peek, tell, attach go through Docket). */
function containedEnv(ctx: EngineContext, row: Worker, execution: LaunchExecution, env: Record<string, string>): string {
  const scratch = scratchDir(ctx, row.id);
  env.TMPDIR = scratch;
  // Your home is read-only inside: tools' caches (npm's, XDG's) go to its scratch unless it was given its own.
  env.XDG_CACHE_HOME ??= join(scratch, ".cache");
  env["npm_config_cache"] ??= join(scratch, ".npm");
  delete env.DOCKET_TMUX_SOCKET;
  // A read-only kind commits nothing: its git reads the repository as it is (read-only), with no git dir of its own.
  if (!execution.readOnly) containGit(ctx, row, env);
  return scratch;
}

function availableModels(ctx: EngineContext, piArgs: string[]): ModelListing {
  try {
    return ctx.agents.listModels(piArgs, ctx.env, ctx.projectRoot(), {
      cacheFile: join(ctx.home.root, "cache", "pi-models.json"),
      nowMs: ctx.clock.nowMs(),
      serialize: modelListingLock(ctx),
    });
  } catch (error) {
    throw new DocketError("refusal", "pi-models-unavailable", `could not ask pi for its models: ${(error as Error).message.split("\n")[0]}`, {
      hint: "check that pi runs (npx pi --list-models) and that DOCKET_PI_ARGS / pi.extraArgs are valid",
      cause: error,
    });
  }
}
