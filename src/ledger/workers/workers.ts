// Worker rows: creation with a never-reused w<N>, reads, and the generation/run-token fence.
// The fence is checked inside the same transaction as whatever the worker asked for; the row keeps only the token's
// hash (docs/decisions/workers.md, docs/decisions/authority.md).

import { isSourceHandoff } from "../../domain/deliverables/deliverable.js";
import { parseLaunchExecution } from "../../domain/workers/execution.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { LifecyclePatch, PersistedState } from "../../domain/workers/lifecycle.js";
import type { WorkerAgent } from "../../domain/workers/spawn-policy.js";
import type { Worker, WorkerPatch, WorkspaceMode } from "../../domain/workers/worker.js";
import { asStringList, jsonColumn, parseJson } from "../core/json-columns.js";
import type { Db } from "../core/open.js";
import { statement } from "../core/statements.js";
import type { Tx } from "../core/runner.js";
import { fenced, internalError, notFound } from "../../domain/errors.js";
import { formatId } from "../../domain/ids.js";
import { sha256Hex } from "../core/sha256.js";

/** A worker row as SQLite returns it (snake_case, JSON as text): read only in the ledger, turned into a `Worker` below. */
export interface WorkerRow {
  id: string;
  seq: number;
  task: string;
  kind: string;
  agent: WorkerAgent;
  command: string | null;
  execution: string;
  env: string;
  cwd: string;
  project_root: string;
  workspace: string;
  workspace_mode: WorkspaceMode;
  base: string | null;
  base_head: string | null;
  generation: number;
  run_token_hash: string;
  state: PersistedState;
  exited: number;
  exit_code: number | null;
  exited_at: string | null;
  tmux_session: string | null;
  window_id: string | null;
  pane_id: string | null;
  heartbeat_at: string | null;
  pid: number | null;
  model_in_effect: string | null;
  thinking_in_effect: string | null;
  deliverable_id: string | null;
  deliverable_version: number | null;
  deliverable_ref: string | null;
  summary: string | null;
  outcome: string | null;
  last_error: string | null;
  todos: string;
  source_handoff: string | null;
  pane_captured_at: string | null;
  reviewed_at: string | null;
  settled_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  contained: number;
}

export function workerFromRow(r: WorkerRow): Worker {
  const where = (column: string) => ({ table: "workers", column, id: r.id });
  return {
    id: r.id,
    seq: r.seq,
    task: r.task,
    kind: r.kind,
    agent: r.agent,
    command: r.command,
    execution: parseLaunchExecution(parseJson(r.execution)) ?? null,
    envNames: jsonColumn(r.env, asStringList, where("env")),
    cwd: r.cwd,
    projectRoot: r.project_root,
    workspace: r.workspace,
    workspaceMode: r.workspace_mode,
    base: r.base,
    baseHead: r.base_head,
    generation: r.generation,
    runTokenHash: r.run_token_hash,
    state: r.state,
    exited: r.exited === 1,
    exitCode: r.exit_code,
    exitedAt: r.exited_at,
    tmuxSession: r.tmux_session,
    windowId: r.window_id,
    paneId: r.pane_id,
    heartbeatAt: r.heartbeat_at,
    pid: r.pid,
    modelInEffect: r.model_in_effect,
    thinkingInEffect: r.thinking_in_effect,
    deliverableId: r.deliverable_id,
    deliverableVersion: r.deliverable_version,
    deliverableRef: r.deliverable_ref,
    summary: r.summary,
    outcome: r.outcome,
    lastError: r.last_error,
    sourceHandoff:
      r.source_handoff === null
        ? null
        : jsonColumn(r.source_handoff, (v) => (isSourceHandoff(v) ? v : undefined), where("source_handoff")),
    paneCapturedAt: r.pane_captured_at,
    reviewedAt: r.reviewed_at,
    settledAt: r.settled_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
    contained: r.contained === 1,
  };
}

/** The column of each patchable field. */
const COLUMN: Readonly<Record<keyof WorkerPatch, keyof WorkerRow>> = {
  task: "task",
  kind: "kind",
  agent: "agent",
  command: "command",
  cwd: "cwd",
  projectRoot: "project_root",
  workspace: "workspace",
  workspaceMode: "workspace_mode",
  base: "base",
  baseHead: "base_head",
  generation: "generation",
  runTokenHash: "run_token_hash",
  state: "state",
  exited: "exited",
  exitCode: "exit_code",
  exitedAt: "exited_at",
  tmuxSession: "tmux_session",
  windowId: "window_id",
  paneId: "pane_id",
  heartbeatAt: "heartbeat_at",
  pid: "pid",
  modelInEffect: "model_in_effect",
  thinkingInEffect: "thinking_in_effect",
  deliverableId: "deliverable_id",
  deliverableVersion: "deliverable_version",
  deliverableRef: "deliverable_ref",
  summary: "summary",
  outcome: "outcome",
  lastError: "last_error",
  todos: "todos",
  sourceHandoff: "source_handoff",
  paneCapturedAt: "pane_captured_at",
  reviewedAt: "reviewed_at",
  settledAt: "settled_at",
  deletedAt: "deleted_at",
  contained: "contained",
};

const isPatchKey = (key: string): key is keyof WorkerPatch => Object.hasOwn(COLUMN, key);

/** A field's value as its column stores it: booleans as 0/1, records and lists as JSON text. */
function columnValue(key: keyof WorkerPatch, value: unknown): unknown {
  if (key === "exited" || key === "contained") return value ? 1 : 0;
  if ((key === "todos" || key === "sourceHandoff") && value !== null) return JSON.stringify(value);
  return value;
}

export interface NewWorker {
  task: string;
  kind: string;
  agent: WorkerAgent;
  command?: string;
  /** The resolved execution (stored whole as JSON; a relaunch reads back its launch fields). */
  execution: unknown;
  /** Names of the --env variables (never their values). */
  envNames?: readonly string[];
  cwd: string;
  projectRoot: string;
  /** Filled in by the caller once it knows the id (e.g. `<home>/fleet/<id>/workspace`). */
  workspace: (id: string) => string;
  workspaceMode: WorkspaceMode;
  base?: string;
  baseHead?: string;
  /** The plain token of generation 1; only its hash is written. */
  runToken: string;
  sourceHandoff?: unknown;
  /** The process running the spawn: a start whose spawner died is reconciled. */
  spawnerPid?: number;
}

/** What the ledger keeps of a run token. */
export function hashRunToken(token: string): string {
  return sha256Hex(token);
}

/** Inserts a worker at generation 1 in state `starting`; returns its id. */
export function insertWorker(tx: Tx, w: NewWorker): string {
  const seq = tx.next("worker");
  const id = formatId("worker", seq);
  statement(
    tx.db,
    `INSERT INTO workers (id, seq, task, kind, agent, command, execution, env, cwd, project_root, workspace, workspace_mode,
        base, base_head, generation, run_token_hash, state, source_handoff, pid, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, 'starting', ?, ?, ?, ?)`,
  ).run(
    id,
    seq,
    w.task,
    w.kind,
    w.agent,
    w.command ?? null,
    JSON.stringify(w.execution),
    JSON.stringify(w.envNames ?? []),
    w.cwd,
    w.projectRoot,
    w.workspace(id),
    w.workspaceMode,
    w.base ?? null,
    w.baseHead ?? null,
    hashRunToken(w.runToken),
    w.sourceHandoff === undefined ? null : JSON.stringify(w.sourceHandoff),
    w.spawnerPid ?? null,
    tx.now,
    tx.now,
  );
  statement(tx.db, "INSERT INTO launches (worker, generation, run_token_hash, started_at) VALUES (?, 1, ?, ?)").run(
    id,
    hashRunToken(w.runToken),
    tx.now,
  );
  tx.emit("worker.status", { worker: id });
  return id;
}

export function getWorker(db: Db, id: string): Worker | undefined {
  const row = statement(db, "SELECT * FROM workers WHERE id = ? AND deleted_at IS NULL").get(id) as
    | WorkerRow
    | undefined;
  return row ? workerFromRow(row) : undefined;
}

/** A worker row even after `delete` (its versions stay readable by exact ref), or undefined: never recorded. */
export function getWorkerEverRecorded(db: Db, id: string): Worker | undefined {
  const row = statement(db, "SELECT * FROM workers WHERE id = ?").get(id) as WorkerRow | undefined;
  return row ? workerFromRow(row) : undefined;
}

export function requireWorker(db: Db, id: string): Worker {
  const row = getWorker(db, id);
  if (!row) throw notFound("worker-not-found", `no worker ${id}`, "run `docket ls --all` to see workers");
  return row;
}

/** True when `token` is the run token the row's current generation was launched with. */
export function runTokenMatches(row: Pick<Worker, "runTokenHash">, token: string): boolean {
  return hashRunToken(token) === row.runTokenHash;
}

/**
 * The fence: a call is accepted only from the worker's current generation and run token
 * while that process has not exited. A stale generation was replaced; a wrong token at the right one is an impostor.
 */
export function checkFence(tx: Tx, who: WorkerIdentity): Worker {
  return checkFenceOn(tx.db, who);
}

/** The fence read outside a command (the door explaining why a generation has no socket): same checks, same words. */
export function checkFenceOn(db: Db, who: WorkerIdentity): Worker {
  const row = requireWorker(db, who.worker);
  if (who.generation !== row.generation) {
    throw fenced(
      "generation-replaced",
      `${who.worker} generation ${who.generation} was replaced by generation ${row.generation}; this process was replaced and its reports are refused`,
    );
  }
  if (!runTokenMatches(row, who.runToken)) {
    throw fenced(
      "run-token-mismatch",
      `${who.worker} generation ${who.generation}: the run token does not match the one this generation was launched with; the call is refused`,
      "only the process Docket launched may speak for a worker; its token is in that process's own environment",
    );
  }
  if (row.exited) {
    throw fenced(
      "worker-exited",
      `${who.worker} generation ${who.generation} has exited; the process was replaced or stopped and its reports are refused`,
    );
  }
  return row;
}

/**
 * Applies a partial update to a worker row (fields in camelCase, as `Worker` names them) and queues its status.json
 * projection. A field no worker has is a programming error, refused before anything is written.
 */
export function updateWorker(tx: Tx, id: string, patch: WorkerPatch): void {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (!isPatchKey(key))
      throw internalError(
        "worker-field-unknown",
        `a worker has no field ${JSON.stringify(key)} (fields are camelCase: domain/workers/worker.ts)`,
      );
    if (value === undefined) continue;
    values[COLUMN[key]] = columnValue(key, value);
  }
  const columns = Object.keys(values);
  if (columns.length === 0) return;
  const sets = columns.map((c) => `${c} = @${c}`).join(", ");
  statement(tx.db, `UPDATE workers SET ${sets}, updated_at = @__now WHERE id = @__id`).run({
    ...values,
    __now: tx.now,
    __id: id,
  });
  tx.emit("worker.status", { worker: id });
}

/** Applies a lifecycle transition's patch (with any other fields the same command sets); an empty patch writes nothing. */
export function applyLifecycle(
  tx: Tx,
  id: string,
  patch: LifecyclePatch,
  also: Omit<WorkerPatch, keyof LifecyclePatch> = {},
): void {
  updateWorker(tx, id, { ...patch, ...also });
}

/** What a lifecycle transition reads of a worker. */
export function lifecycleRowOf(row: Pick<Worker, "state" | "agent" | "deliverableId">): {
  state: PersistedState;
  agent: WorkerAgent;
  hasDeliverable: boolean;
} {
  return { state: row.state, agent: row.agent, hasDeliverable: row.deliverableId !== null };
}

/** The generation and harvest stamp of a worker row, deleted or not: a harvest records its capture on its own generation only. */
export function paneCaptureOf(db: Db, id: string): { generation: number; paneCapturedAt: string | null } | undefined {
  const row = statement(db, "SELECT generation, pane_captured_at FROM workers WHERE id = ?").get(id) as
    | { generation: number; pane_captured_at: string | null }
    | undefined;
  return row ? { generation: row.generation, paneCapturedAt: row.pane_captured_at } : undefined;
}

/** The generations a door serves: every worker row that is not deleted and whose current process has not exited. */
export function servedGenerations(
  db: Db,
): { worker: string; generation: number; agent: WorkerAgent; projectRoot: string }[] {
  const rows = statement(
    db,
    "SELECT id, generation, agent, project_root FROM workers WHERE deleted_at IS NULL AND exited = 0",
  ).all() as Pick<WorkerRow, "id" | "generation" | "agent" | "project_root">[];
  return rows.map((r) => ({ worker: r.id, generation: r.generation, agent: r.agent, projectRoot: r.project_root }));
}
