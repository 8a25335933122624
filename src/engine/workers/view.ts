// `docket ls` and `docket show`: worker rows with their derived display state and liveness, read in one pass.
// One tmux listing serves every row; finished panes are harvested on the way (anchor §1.8, DESIGN §4).

import type { WorkerAgent } from "../../domain/workers/spawn-policy.js";
import { formatAge } from "../../domain/clock.js";
import { deliverableRef } from "../../domain/deliverables/deliverable.js";
import { validationError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import { isSettled, resolveDisplayState, resolveLiveness, type DisplayState, type Liveness, type PaneProbe } from "../../domain/workers/lifecycle.js";
import { messageDeliveries } from "../../ledger/talk/message-delivery.js";
import { openQuestionAudiences } from "../../ledger/talk/consults.js";
import { listLaunches, listWorkerRows, openQuestionCounts, openQuestionsOf } from "../../ledger/workers/launches.js";
import { getWorker, requireWorker, type WorkerRow } from "../../ledger/workers/workers.js";
import { paneFromMap, type PaneMap } from "../../substrate/tmux.js";
import type { EngineContext } from "../context.js";
import { harvestFinished, reconcileStalledStarts } from "./harvest.js";
import type { BaseMoved } from "../../domain/review/base-moved.js";
import { baseMovedOf } from "../review/base-moved.js";
import { escalateOverdueConsults } from "../talk/consult-lane.js";
import type { StoredExecution } from "./launch.js";
import { workerTmux } from "./launch.js";

export interface WorkerListEntry {
  worker: string;
  kind: string;
  task: string;
  state: DisplayState;
  liveness: Liveness;
  generation: number;
  questions: number;
  deliverable: string | null;
}

export interface WorkerListing {
  workers: WorkerListEntry[];
  /** Per worker: age since creation, for the human table only. */
  ages: Map<string, string>;
  /** Per worker whose base moved: landed files it works on (the human table's `base moved · N files`). */
  baseMoved: Map<string, BaseMoved>;
}

function paneProbe(row: WorkerRow, panes: PaneMap | undefined): PaneProbe {
  if (panes === undefined || row.pane_id === null) return "unprobed";
  return paneFromMap(panes, row.pane_id, row.id);
}

export function viewOf(row: WorkerRow, pane: PaneProbe, nowMs: number, consulting = false): { state: DisplayState; liveness: Liveness } {
  const view = {
    consulting,
    state: row.state,
    agent: row.agent,
    exited: row.exited === 1,
    heartbeatAt: row.heartbeat_at,
    updatedAt: row.updated_at,
    reviewedAt: row.reviewed_at,
    paneCapturedAt: row.pane_captured_at,
    pane,
  };
  return { state: resolveDisplayState(view, nowMs), liveness: resolveLiveness(view, nowMs) };
}

/** This project's unsettled workers; `all`: every project's workers, settled ones too. */
export function listWorkers(ctx: EngineContext, options: { all?: boolean } = {}): WorkerListing {
  escalateOverdueConsults(ctx);
  const panes = workerTmux(ctx).listPanes();
  let rows = listWorkerRows(ctx.db, options.all ? {} : { projectRoot: ctx.projectRoot() });
  if (harvestFinished(ctx, rows, panes) + reconcileStalledStarts(ctx, rows) > 0) rows = listWorkerRows(ctx.db, options.all ? {} : { projectRoot: ctx.projectRoot() });
  if (!options.all) rows = rows.filter((r) => !isSettled({ state: r.state, reviewedAt: r.reviewed_at }));
  const questions = openQuestionCounts(ctx.db);
  const audiences = openQuestionAudiences(ctx.db);
  const nowMs = ctx.clock.nowMs();
  const ages = new Map<string, string>();
  const workers = rows.map((row) => {
    ages.set(row.id, formatAge(row.created_at, nowMs));
    const { state, liveness } = viewOf(row, paneProbe(row, panes), nowMs, isConsulting(audiences.get(row.id)));
    return listEntryOf(row, state, liveness, questions.get(row.id) ?? 0);
  });
  return { workers, ages, baseMoved: baseMovedOf(ctx, rows) };
}

function listEntryOf(row: WorkerRow, state: DisplayState, liveness: Liveness, questions: number): WorkerListEntry {
  return {
    worker: row.id,
    kind: row.kind,
    task: row.task,
    state,
    liveness,
    generation: row.generation,
    questions,
    deliverable: row.deliverable_id !== null && row.deliverable_version !== null ? (row.deliverable_ref ?? deliverableRef(row.id, row.deliverable_version)) : null,
  };
}

export interface WorkerDetail extends WorkerListEntry {
  agent: WorkerAgent;
  persistedState: WorkerRow["state"];
  workspace: string;
  workspaceMode: "isolated" | "shared";
  base: string | null;
  execution: { model: string | null; thinking: string; context: string; workspace: string; command?: string };
  modelInEffect: string | null;
  thinkingInEffect: string | null;
  tmux: { session: string | null; window: string | null; pane: string | null };
  heartbeatAt: string | null;
  exitCode: number | null;
  lastError: string | null;
  openQuestions: { id: string; text: string }[];
  launches: { generation: number; startedAt: string; exitedAt: string | null; exitCode: number | null }[];
  messages: { id: string; delivery: string }[];
  /** Files that landed in the project since it started, among those it read, edited or plans to edit; null when none. */
  baseMoved: BaseMoved | null;
}

/** Consulting: the worker waits only on consults the parent agent holds (a question for the human outranks it). */
export function isConsulting(open: { human: number; agent: number } | undefined): boolean {
  return open !== undefined && open.agent > 0 && open.human === 0;
}

export function resolveWorkerId(target: string): string {
  const id = normalizeWorkerId(target);
  if (!id) throw validationError("bad-worker-id", `"${target}" is not a worker id; workers are w<N>`);
  return id;
}

export function showWorker(ctx: EngineContext, target: string): WorkerDetail {
  const id = resolveWorkerId(target);
  escalateOverdueConsults(ctx);
  let row = requireWorker(ctx.db, id);
  const panes = workerTmux(ctx).listPanes();
  if (harvestFinished(ctx, [row], panes) + reconcileStalledStarts(ctx, [row]) > 0) row = getWorker(ctx.db, id) ?? row;
  const { state, liveness } = viewOf(row, paneProbe(row, panes), ctx.clock.nowMs(), isConsulting(openQuestionAudiences(ctx.db).get(id)));
  const ex = JSON.parse(row.execution) as StoredExecution;
  return {
    ...listEntryOf(row, state, liveness, openQuestionsOf(ctx.db, id).length),
    agent: row.agent,
    persistedState: row.state,
    workspace: row.workspace,
    workspaceMode: row.workspace_mode,
    base: row.base,
    execution: { model: ex.model, thinking: ex.thinking, context: ex.context, workspace: ex.workspace, ...(ex.command ? { command: ex.command } : {}) },
    modelInEffect: row.model_in_effect,
    thinkingInEffect: row.thinking_in_effect,
    tmux: { session: row.tmux_session, window: row.window_id, pane: row.pane_id },
    heartbeatAt: row.heartbeat_at,
    exitCode: row.exit_code,
    lastError: row.last_error,
    openQuestions: openQuestionsOf(ctx.db, id).map((q) => ({ id: q.id, text: q.text })),
    launches: listLaunches(ctx.db, id).map((l) => ({ generation: l.generation, startedAt: l.started_at, exitedAt: l.exited_at, exitCode: l.exit_code })),
    messages: messageDeliveries(ctx.db, id).map((m) => ({ id: m.id, delivery: m.delivery })),
    baseMoved: baseMovedOf(ctx, [row]).get(id) ?? null,
  };
}
