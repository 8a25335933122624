// Fleet reads: the live workers of a project, the ones that may still run (for the fleet cap), and the few columns the
// pi dock reads on every ledger change.

import type { Db } from "../core/open.js";
import { TERMINAL_STATES, type PersistedState } from "../../domain/workers/lifecycle.js";
import type { WorkerAgent } from "../../domain/workers/spawn-policy.js";
import { jsonColumn } from "../core/json-columns.js";
import { isSourceHandoff, type SourceHandoff } from "../../domain/deliverables/deliverable.js";
import type { Worker } from "../../domain/workers/worker.js";
import { workerFromRow, type WorkerRow } from "./workers.js";
import { statement } from "../core/statements.js";

/** Live (not deleted) workers, of one project or all, in label order. */
export function workersOf(db: Db, options: { projectRoot?: string } = {}): Worker[] {
  const rows =
    options.projectRoot !== undefined
      ? statement(db, "SELECT * FROM workers WHERE deleted_at IS NULL AND project_root = ? ORDER BY seq").all(
          options.projectRoot,
        )
      : statement(db, "SELECT * FROM workers WHERE deleted_at IS NULL ORDER BY seq").all();
  return (rows as WorkerRow[]).map(workerFromRow);
}

// isSettled (domain/workers/lifecycle.ts) in SQL: ended, or reviewed in a terminal state.
const SETTLED_SQL = `(state = 'ended' OR (reviewed_at IS NOT NULL AND state IN (${TERMINAL_STATES.map((s) => `'${s}'`).join(", ")})))`;

/**
 * This project's workers a listing reads: the unsettled ones it shows, and the settled ones whose process or pane is
 * not done with yet (not exited, or its pane not captured). A settled worker that is done with is never read.
 */
export function listedWorkersOf(db: Db, projectRoot: string): Worker[] {
  const rows = statement(
    db,
    `SELECT * FROM workers WHERE deleted_at IS NULL AND project_root = ?
      AND (NOT ${SETTLED_SQL} OR exited = 0 OR pane_captured_at IS NULL) ORDER BY seq`,
  ).all(projectRoot);
  return (rows as WorkerRow[]).map(workerFromRow);
}

/** What the fleet cap reads of a worker that may still run: not exited, not failed or ended, pane not yet captured. */
export interface StartingOrRunning {
  id: string;
  paneId: string | null;
  state: PersistedState;
  exited: boolean;
  windowId: string | null;
  updatedAt: string;
  pid: number | null;
  reviewedAt: string | null;
  /** The host it runs on over ssh; null: this machine (its pane is in this machine's listing). */
  host: string | null;
}

export function possiblyLiveWorkers(db: Db): StartingOrRunning[] {
  const rows = statement(
    db,
    "SELECT id, pane_id, state, exited, window_id, updated_at, pid, reviewed_at, CASE WHEN json_valid(execution) THEN json_extract(execution, '$.host') END AS host FROM workers WHERE deleted_at IS NULL AND exited = 0 AND pane_captured_at IS NULL AND state NOT IN ('failed','ended') ORDER BY seq",
  ).all() as {
    id: string;
    pane_id: string | null;
    state: PersistedState;
    exited: number;
    window_id: string | null;
    updated_at: string;
    pid: number | null;
    reviewed_at: string | null;
    host: unknown;
  }[];
  return rows.map((r) => ({
    id: r.id,
    paneId: r.pane_id,
    state: r.state,
    exited: r.exited === 1,
    windowId: r.window_id,
    updatedAt: r.updated_at,
    pid: r.pid,
    reviewedAt: r.reviewed_at,
    host: typeof r.host === "string" ? r.host : null,
  }));
}

/** The columns the parent's dock shows of one worker (read on every ledger change: only these, through a cached statement). */
export interface DockWorker {
  id: string;
  kind: string;
  task: string;
  agent: WorkerAgent;
  state: PersistedState;
  exited: boolean;
  heartbeatAt: string | null;
  updatedAt: string;
  reviewedAt: string | null;
  paneCapturedAt: string | null;
  lastError: string | null;
  generation: number;
  deliverableVersion: number | null;
  deliverableRef: string | null;
  createdAt: string;
  projectRoot: string;
  sourceHandoff: SourceHandoff | null;
  contained: boolean;
  /** The host it runs on over ssh; null: this machine. */
  host: string | null;
}

const DOCK_SQL = `SELECT id, kind, task, agent, state, exited, heartbeat_at, updated_at, reviewed_at, pane_captured_at, last_error, generation,
  deliverable_version, deliverable_ref, created_at, project_root, source_handoff, contained,
  CASE WHEN json_valid(execution) THEN json_extract(execution, '$.host') END AS host FROM workers WHERE deleted_at IS NULL AND project_root = ? ORDER BY seq`;

export function dockWorkers(db: Db, projectRoot: string): DockWorker[] {
  const rows = statement(db, DOCK_SQL).all(projectRoot) as {
    id: string;
    kind: string;
    task: string;
    agent: WorkerAgent;
    state: PersistedState;
    exited: number;
    heartbeat_at: string | null;
    updated_at: string;
    reviewed_at: string | null;
    pane_captured_at: string | null;
    last_error: string | null;
    generation: number;
    deliverable_version: number | null;
    deliverable_ref: string | null;
    created_at: string;
    project_root: string;
    source_handoff: string | null;
    contained: number;
    host: unknown;
  }[];
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    task: r.task,
    agent: r.agent,
    state: r.state,
    exited: r.exited === 1,
    heartbeatAt: r.heartbeat_at,
    updatedAt: r.updated_at,
    reviewedAt: r.reviewed_at,
    paneCapturedAt: r.pane_captured_at,
    lastError: r.last_error,
    generation: r.generation,
    deliverableVersion: r.deliverable_version,
    deliverableRef: r.deliverable_ref,
    createdAt: r.created_at,
    projectRoot: r.project_root,
    contained: r.contained === 1,
    host: typeof r.host === "string" ? r.host : null,
    sourceHandoff:
      r.source_handoff === null
        ? null
        : jsonColumn(r.source_handoff, (v) => (isSourceHandoff(v) ? v : undefined), {
            table: "workers",
            column: "source_handoff",
            id: r.id,
          }),
  }));
}
