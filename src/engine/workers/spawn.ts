// `docket spawn`: resolve the policy once, record the worker (starting) before anything runs, make its workspace
// and task.md, launch it in tmux, then dispatch its items. Human-started only (docs/decisions/spawn-policy.md).
// A spawn completes or leaves no trace: a failure marks the row failed with the reason and removes what it made.

import { formatAge } from "../../domain/clock.js";
import { refusal } from "../../domain/errors.js";
import { confirmationDeclined, resolveConfirmation } from "../../domain/review/confirmation.js";
import type { WorkerAgent } from "../../domain/agents/traits.js";
import { renderTaskBrief } from "../../domain/workers/task-brief.js";
import { claimFile } from "../../files/atomic.js";
import { ensurePrivateDir } from "../../files/private.js";
import { journalFile } from "../../files/talk/journal-file.js";
import { WORKER_FILES, workerFilePath, writeWorkerFile } from "../../files/workers/worker-files.js";
import { requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import type { IsolatedWorkspace, Serialize } from "../../substrate/git/worktree.js";
import type { EngineContext } from "../context.js";
import { placeOf } from "../places/place.js";
import { dispatchItems } from "../work/dispatch.js";
import { containmentLine } from "./containment.js";
import { snapshotCheckout } from "./kind-integrity.js";
import { launchInto } from "./launch-into.js";
import { newRunToken, previewCommand } from "./launch.js";
import { worktreeLock } from "./locks.js";
import { abandonSpawn, recordSpawn, sidecarOf, withSidecarPath } from "./spawn-record.js";
import { resolveSpawn, whereLine, type ResolvedSpawn, type SpawnInput } from "./spawn-resolve.js";

export { launchInto } from "./launch-into.js";
export type { SpawnHandoff, SpawnInput } from "./spawn-resolve.js";

export interface SpawnResult {
  worker: string;
  generation: number;
  kind: string;
  execution: { model: string | null; thinking: string; context: "fresh" | "seeded"; workspace: "isolated" | "shared" };
  summary: string[];
  dispatch?: { dispatch: string; bindings: { item: string; binding: string; acceptedRevision: number }[] };
}

export interface SpawnPlan {
  dryRun: true;
  agent: WorkerAgent;
  kind: string;
  summary: string[];
  /** The argv the worker's window would run (inside Docket's exit wrapper). */
  command: string[];
}

/** `docket spawn --dry-run`: the same resolution, and the command the window would run; nothing is written or
 * started. */
export async function planSpawn(ctx: EngineContext, input: SpawnInput): Promise<SpawnPlan> {
  const { resolved, execution } = await resolveSpawn(ctx, { ...input, interactive: false });
  const summary = [...resolved.summary, whereLine(ctx, execution, input)];
  return { dryRun: true, agent: resolved.agent, kind: resolved.kind, summary, command: previewCommand(ctx, execution) };
}

/** How far a spawn got, so a failure undoes exactly what it made. */
interface SpawnProgress {
  stage: "dispatch" | "workspace" | "place";
  workspace?: IsolatedWorkspace;
}

export async function spawnWorker(ctx: EngineContext, input: SpawnInput): Promise<SpawnResult> {
  const spawn = await resolveSpawn(ctx, input);
  const { task, resolved, execution, listing, containment, defaultKind } = spawn;
  const interactive = Boolean(input.interactive && input.confirm);
  const step = resolveConfirmation("spawn", { yes: Boolean(input.yes), interactive, needed: resolved.confirm.needed });
  if (step === "ask" && !(await input.confirm!(resolved))) throw confirmationDeclined("spawn", task);
  const projectRoot = ctx.projectRoot();
  const runToken = newRunToken();
  const worker = recordSpawn(ctx, spawn, input, { projectRoot, runToken });

  const summary = [
    ...resolved.summary,
    containmentLine(containment),
    whereLine(ctx, execution, input),
    ...defaultKind.warnings.map((w) => `warning: ${w}`),
  ];
  if (listing?.cachedAt !== undefined) {
    const age = formatAge(new Date(listing.cachedAt).toISOString(), ctx.clock.nowMs());
    summary.push(`Models: from Docket's cache of pi's listing (${age} old)`);
  }
  const serialize = worktreeLock(ctx, projectRoot);
  const progress: SpawnProgress = { stage: "dispatch" };
  try {
    let dispatch: SpawnResult["dispatch"];
    let work: string | undefined;
    if (input.items && input.items.length > 0) {
      // The items reach the worker in its task.md, with its first prompt: never a turn that interrupts its plan question.
      ({ envelope: work, ...dispatch } = dispatchItems(ctx, { worker, items: input.items, inBrief: true }));
    }
    progress.stage = "workspace";
    prepareAndLaunch(ctx, spawn, input, { worker, projectRoot, runToken, serialize, summary, progress, work });
    const { model, thinking, context, workspace } = resolved;
    return {
      worker,
      generation: 1,
      kind: resolved.kind,
      execution: { model, thinking, context, workspace },
      summary,
      ...(dispatch ? { dispatch } : {}),
    };
  } catch (error) {
    // A refused dispatch means nothing was started: the row is retired unseen (its w<N> is still never reused).
    if (progress.stage === "place") {
      try {
        const row = requireWorker(ctx.db, worker);
        placeOf(ctx, row).retire(row);
      } catch {
        // The host went away mid-spawn: its half-made workspace stays under the host's directory until a later
        // delete there.
      }
    }
    const made = { retire: progress.stage === "dispatch", workspace: progress.workspace, serialize };
    abandonSpawn(ctx, worker, error, made);
    throw error;
  }
}

interface PrepareState {
  worker: string;
  projectRoot: string;
  runToken: string;
  serialize: Serialize;
  /** The spawn's summary: the workspace's notes are added to it. */
  summary: string[];
  progress: SpawnProgress;
  /** The work envelope of the items dispatched with the spawn, for task.md. */
  work?: string;
}

/** The worker's files, workspace and task.md (here, and where it runs), then its first generation's window. */
function prepareAndLaunch(ctx: EngineContext, spawn: ResolvedSpawn, input: SpawnInput, state: PrepareState): void {
  const { task, resolved, kind, execution } = spawn;
  const { worker, projectRoot, progress } = state;
  const handoff = input.handoff && withSidecarPath(input.handoff, sidecarOf(ctx, worker));
  ensurePrivateDir(workerFilePath(ctx.home, worker, WORKER_FILES.session));
  if (handoff && !claimFile(handoff.record.sidecarPath, handoff.sourceBody)) {
    const claimed = `${worker}/source-deliverable.md already exists; refusing to overwrite reviewed input`;
    throw refusal("handoff-claimed", claimed);
  }
  const row = requireWorker(ctx.db, worker);
  if (resolved.workspace === "isolated") {
    const ws = ctx.git.createIsolatedWorkspace({
      root: projectRoot,
      target: row.workspace,
      exclude: [ctx.home.root],
      adminName: `docket-${worker}`,
      serialize: state.serialize,
    });
    progress.workspace = ws;
    state.summary.push(...ws.notes);
    const at = { base: ws.base, baseHead: ws.baseHead };
    ctx.commands.run("worker.workspace", { worker }, (tx) => updateWorker(tx, worker, at));
  }
  const workspaceMode = resolved.workspace;
  const brief = renderTaskBrief({
    workerId: worker,
    task,
    kind,
    workspace: row.workspace,
    workspaceMode,
    handoff: handoff?.brief,
    journal: journalFile(ctx.home, row.projectRoot),
    work: state.work,
  });
  writeWorkerFile(ctx.home, worker, WORKER_FILES.task, brief);
  if (progress.workspace) {
    progress.stage = "place";
    // Where it runs may keep its own workspace and task.md, naming the paths there.
    const placeBrief = (at: { workspace: string; source: string }) =>
      renderTaskBrief({
        workerId: worker,
        task,
        kind,
        workspace: at.workspace,
        workspaceMode,
        handoff: handoff && { ...handoff.brief, sidecarPath: at.source },
        work: state.work,
      });
    placeOf(ctx, { execution }).prepareWorkspace(row, progress.workspace.base, placeBrief, handoff?.sourceBody);
  }
  // Its card later says whether the checkout changed during its run.
  if (resolved.readOnly) snapshotCheckout(ctx, row);
  launchInto(ctx, row, execution, { generation: 1, runToken: state.runToken, env: input.env ?? {} });
}
