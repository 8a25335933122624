// `docket ls` and `docket show`: worker rows with their derived display state and liveness, read in one pass.
// One tmux listing serves every row; finished panes are harvested on the way (docs/decisions/workers.md).

import { deliverableRef } from "../../domain/deliverables/refs.js";
import { placeListings, placeOf } from "../places/place.js";
import type { Worker } from "../../domain/workers/worker.js";
import type { WorkerAgent } from "../../domain/workers/spawn-policy.js";
import { formatAge } from "../../domain/clock.js";
import { validationError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import {
  isSettled,
  resolveDisplayState,
  resolveLiveness,
  withRevision,
  type DisplayState,
  type Liveness,
  type PaneProbe,
} from "../../domain/workers/lifecycle.js";
import { messageDeliveries } from "../../ledger/talk/message-delivery.js";
import { decisionsForRef, decisionsForWorker } from "../../ledger/review/decisions.js";
import { describeMessage } from "../../domain/talk/message-summary.js";
import { listLaunches } from "../../ledger/workers/launches.js";
import { listedWorkersOf, workersOf } from "../../ledger/workers/fleet-reads.js";
import { openQuestionCounts, openQuestionsOf } from "../../ledger/workers/questions.js";
import { getWorker, requireWorker } from "../../ledger/workers/workers.js";
import { paneFromMap, type PaneMap } from "../../substrate/tmux.js";
import type { EngineContext } from "../context.js";
import { awaitsHarvest, harvestFinished, reconcileStalledStarts } from "./harvest.js";
import { openQuestionAudiences } from "../../ledger/workers/questions.js";
import type { BaseMoved } from "../../domain/review/base-moved.js";
import { baseMovedOf } from "../review/base-moved.js";
import { escalateOverdueConsults } from "../talk/consult-lane.js";
import { EMPTY_TOTALS, type SpendTotals } from "../../domain/workers/spend.js";
import { budgetOf, spendByWorker } from "../../ledger/workers/spend.js";
import { enforceBudgets } from "./budget.js";
import { networkSummary } from "./network-view.js";
import type { NetworkSummary } from "../../domain/workers/network-summary.js";
import { observeWorkers } from "./evidence.js";
import { findingsView, type FindingsView } from "../../domain/workers/evidence.js";
import { openFindings, type Finding } from "../../ledger/workers/findings.js";
import { isSpendAgent, refreshSpend, workerSpend, type WorkerSpend } from "./spend.js";

export interface WorkerListEntry {
  worker: string;
  kind: string;
  task: string;
  state: DisplayState;
  /** Why it shows that state, from the evidence: a failure's cause, the agent's own words, the silence, a refusal. */
  reason?: string;
  liveness: Liveness;
  generation: number;
  questions: number;
  deliverable: string | null;
  /** Its current generation runs inside Docket's sandbox. */
  contained: boolean;
  /** Tokens and cost so far, read from the agent's own records; null for a worker whose agent keeps none. */
  spend: SpendTotals | null;
  /** The host it runs on, and whether that host answered just now; absent: this machine. */
  host?: string;
  hostReachable?: boolean;
}

export interface WorkerListing {
  workers: WorkerListEntry[];
  /** Per worker: age since creation, for the human table only. */
  ages: Map<string, string>;
  /** Per worker whose base moved: landed files it works on (the human table's `base moved · N files`). */
  baseMoved: Map<string, BaseMoved>;
}

/** The listing a row's pane is in: this machine's, or its host's (undefined: it did not answer; the row stays unprobed). */
function panesOf(
  ctx: EngineContext,
  row: Worker,
  local: PaneMap | undefined,
  hosts: Map<string, PaneMap | undefined>,
): PaneMap | undefined {
  return placeOf(ctx, row).listingIn(local, hosts);
}

function paneProbe(row: Worker, panes: PaneMap | undefined): PaneProbe {
  if (panes === undefined || row.paneId === null) return "unprobed";
  return paneFromMap(panes, row.paneId, row.id);
}

/**
 * The state every surface shows (`ls`, `show`, the fleet, the pi dock): the lifecycle's display state, made `revising`
 * while the latest decision on the worker's current version is a revise (the worker owes the next version).
 */
export function shownState(
  ctx: EngineContext,
  row: Pick<Worker, "deliverableRef" | "deliverableVersion">,
  state: DisplayState,
): DisplayState {
  if (row.deliverableRef === null || row.deliverableVersion === null) return state;
  return withRevision(state, decisionsForRef(ctx.db, row.deliverableRef).at(-1)?.verb === "revise");
}

/** Each worker's open findings (one read for a whole listing). */
export function findingsByWorker(ctx: EngineContext): Map<string, Finding[]> {
  const out = new Map<string, Finding[]>();
  for (const f of openFindings(ctx.db)) out.set(f.worker, [...(out.get(f.worker) ?? []), f]);
  return out;
}

export function viewOf(
  row: Worker,
  pane: PaneProbe,
  nowMs: number,
  consulting = false,
  found: FindingsView = { reason: null },
): { state: DisplayState; liveness: Liveness } {
  const view = {
    consulting,
    findings: found,
    state: row.state,
    agent: row.agent,
    exited: row.exited,
    heartbeatAt: row.heartbeatAt,
    updatedAt: row.updatedAt,
    reviewedAt: row.reviewedAt,
    paneCapturedAt: row.paneCapturedAt,
    pane,
  };
  return { state: resolveDisplayState(view, nowMs), liveness: resolveLiveness(view, nowMs) };
}

/** This project's unsettled workers; `all`: every project's workers, settled ones too. */
export function listWorkers(ctx: EngineContext, options: { all?: boolean } = {}): WorkerListing {
  escalateOverdueConsults(ctx);
  const panes = ctx.tmux.listPanes();
  // Without --all only what it may show or still has to harvest is read: a settled worker done with costs nothing.
  const read = () => (options.all ? workersOf(ctx.db) : listedWorkersOf(ctx.db, ctx.projectRoot()));
  let rows = read();
  const hosts = placeListings(
    ctx,
    rows.filter((r) => !r.exited || awaitsHarvest(r)),
  );
  const observed = observeWorkers(ctx, rows, panes, hosts);
  if (harvestFinished(ctx, rows, panes, hosts) + reconcileStalledStarts(ctx, rows) > 0 || observed) rows = read();
  if (!options.all) rows = rows.filter((r) => !isSettled({ state: r.state, reviewedAt: r.reviewedAt }));
  if (refreshSpend(ctx, rows) && enforceBudgets(ctx, rows) > 0) rows = rows.map((r) => getWorker(ctx.db, r.id) ?? r);
  const spend = spendByWorker(ctx.db);
  const questions = openQuestionCounts(ctx.db);
  const audiences = openQuestionAudiences(ctx.db);
  const nowMs = ctx.clock.nowMs();
  const ages = new Map<string, string>();
  const findings = findingsByWorker(ctx);
  const workers = rows.map((row) => {
    ages.set(row.id, formatAge(row.createdAt, nowMs));
    const found = findingsView(row, findings.get(row.id) ?? []);
    const { state, liveness } = viewOf(
      row,
      paneProbe(row, panesOf(ctx, row, panes, hosts)),
      nowMs,
      isConsulting(audiences.get(row.id)),
      found,
    );
    return listEntryOf(
      ctx,
      row,
      shownState(ctx, row, state),
      found.reason,
      liveness,
      questions.get(row.id) ?? 0,
      spendOf(row, spend),
      hosts,
    );
  });
  return { workers, ages, baseMoved: baseMovedOf(ctx, rows) };
}

const spendOf = (row: Worker, spend: Map<string, SpendTotals>): SpendTotals | null =>
  isSpendAgent(row.agent) ? (spend.get(row.id) ?? { ...EMPTY_TOTALS }) : null;

function listEntryOf(
  ctx: EngineContext,
  row: Worker,
  state: DisplayState,
  reason: string | null,
  liveness: Liveness,
  questions: number,
  spend: SpendTotals | null,
  hosts?: Map<string, PaneMap | undefined>,
): WorkerListEntry {
  const { host } = placeOf(ctx, row);
  return {
    worker: row.id,
    kind: row.kind,
    task: row.task,
    state,
    ...(reason !== null ? { reason } : {}),
    liveness,
    generation: row.generation,
    questions,
    deliverable:
      row.deliverableId !== null && row.deliverableVersion !== null
        ? (row.deliverableRef ?? deliverableRef(row.id, row.deliverableVersion))
        : null,
    contained: row.contained,
    spend,
    ...(host !== undefined
      ? { host, ...(hosts?.has(host) ? { hostReachable: hosts.get(host) !== undefined } : {}) }
      : {}),
  };
}

export interface WorkerDetail extends WorkerListEntry {
  agent: WorkerAgent;
  persistedState: Worker["state"];
  workspace: string;
  workspaceMode: "isolated" | "shared";
  base: string | null;
  /** Empty for a row whose execution is not a launchable shape (rows written outside spawn). */
  execution:
    | { model: string | null; thinking: string; context: string; workspace: string; command?: string }
    | Record<string, never>;
  modelInEffect: string | null;
  thinkingInEffect: string | null;
  tmux: { session: string | null; window: string | null; pane: string | null };
  heartbeatAt: string | null;
  exitCode: number | null;
  lastError: string | null;
  /** What observers found about this generation and still stands (blocked, stuck, a refused call), oldest first. */
  findings: { kind: string; text: string; at: string }[];
  openQuestions: { id: string; text: string }[];
  launches: { generation: number; startedAt: string; exitedAt: string | null; exitCode: number | null }[];
  /** Each message with what it was: its kind and first line, a review note with the revise decision that sent it. */
  messages: { id: string; delivery: string; kind: string; what: string }[];
  /** Files that landed in the project since it started, among those it read, edited or plans to edit; null when none. */
  baseMoved: BaseMoved | null;
  /** Spend per generation and per deliverable version, and the budget with the thresholds it crossed. */
  spendDetail: WorkerSpend;
  budget: { usd: number | null; warnedAt: string | null; stoppedAt: string | null };
  /** Its network: the launch's mode, what its proxy allows, and every destination it asked for (docs/containment.md). */
  network: NetworkSummary;
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

function messagesOf(ctx: EngineContext, worker: string): WorkerDetail["messages"] {
  // A revise writes its decision and its review note in one transaction: the same instant ties the two together.
  const revises = decisionsForWorker(ctx.db, worker).filter((d) => d.verb === "revise");
  return messageDeliveries(ctx.db, worker).map((m) => {
    const decision = m.kind === "review_note" ? revises.find((d) => d.at === m.createdAt) : undefined;
    const what = describeMessage({
      kind: m.kind,
      body: m.body,
      question: m.question,
      ...(decision ? { decision: { id: decision.id, note: decision.note } } : {}),
    });
    return { id: m.id, delivery: m.delivery, kind: m.kind, what };
  });
}

export function showWorker(ctx: EngineContext, target: string): WorkerDetail {
  const id = resolveWorkerId(target);
  escalateOverdueConsults(ctx);
  let row = requireWorker(ctx.db, id);
  const panes = ctx.tmux.listPanes();
  const hosts = placeListings(ctx, row.exited && !awaitsHarvest(row) ? [] : [row]);
  const observed = observeWorkers(ctx, [row], panes, hosts);
  if (harvestFinished(ctx, [row], panes, hosts) + reconcileStalledStarts(ctx, [row]) > 0 || observed)
    row = getWorker(ctx.db, id) ?? row;
  const spendDetail = workerSpend(ctx, row);
  if (enforceBudgets(ctx, [row]) > 0) row = getWorker(ctx.db, id) ?? row;
  const budget = budgetOf(ctx.db, id);
  const findings = findingsByWorker(ctx).get(id) ?? [];
  const found = findingsView(row, findings);
  const { state, liveness } = viewOf(
    row,
    paneProbe(row, panesOf(ctx, row, panes, hosts)),
    ctx.clock.nowMs(),
    isConsulting(openQuestionAudiences(ctx.db).get(id)),
    found,
  );
  const ex = row.execution;
  return {
    ...listEntryOf(
      ctx,
      row,
      shownState(ctx, row, state),
      found.reason,
      liveness,
      openQuestionsOf(ctx.db, id).length,
      spendDetail.total ?? (isSpendAgent(row.agent) ? { ...EMPTY_TOTALS } : null),
      hosts,
    ),
    agent: row.agent,
    persistedState: row.state,
    workspace: row.workspace,
    workspaceMode: row.workspaceMode,
    base: row.base,
    execution: ex
      ? {
          model: ex.model,
          thinking: ex.thinking,
          context: ex.context,
          workspace: ex.workspace,
          ...(ex.command ? { command: ex.command } : {}),
        }
      : {},
    modelInEffect: row.modelInEffect,
    thinkingInEffect: row.thinkingInEffect,
    tmux: { session: row.tmuxSession, window: row.windowId, pane: row.paneId },
    heartbeatAt: row.heartbeatAt,
    exitCode: row.exitCode,
    lastError: row.lastError,
    findings: findings.map((f) => ({ kind: f.kind, text: f.text, at: f.foundAt })),
    openQuestions: openQuestionsOf(ctx.db, id).map((q) => ({ id: q.id, text: q.text })),
    launches: listLaunches(ctx.db, id).map((l) => ({
      generation: l.generation,
      startedAt: l.startedAt,
      exitedAt: l.exitedAt,
      exitCode: l.exitCode,
    })),
    messages: messagesOf(ctx, id),
    baseMoved: baseMovedOf(ctx, [row]).get(id) ?? null,
    spendDetail,
    budget: { usd: budget.budgetUsd, warnedAt: budget.warnedAt, stoppedAt: budget.stoppedAt },
    network: networkSummary(ctx, row),
  };
}
