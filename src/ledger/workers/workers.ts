// Worker rows: creation with a never-reused w<N>, reads, and the generation/run-token fence.
// The fence is checked inside the same transaction as whatever the worker asked for; the row keeps only the token's hash (DESIGN §4, §8a).

import type { WorkerAgent } from "../../domain/workers/spawn-policy.js";
import type { Db } from "../core/open.js";
import { statement } from "../core/statements.js";
import type { Tx } from "../core/runner.js";
import { fenced, notFound } from "../../domain/errors.js";
import { formatId } from "../../domain/ids.js";
import { sha256Hex } from "../core/sha256.js";

export type WorkerState = "starting" | "active" | "idle" | "needs_input" | "ready" | "failed" | "ended";

export interface WorkerRow {
  id: string;
  seq: number;
  task: string;
  kind: string;
  agent: WorkerAgent;
  command: string | null;
  execution: string;
  /** JSON list of the names of the worker's --env variables; their values live only in its launch env file. */
  env: string;
  cwd: string;
  project_root: string;
  workspace: string;
  workspace_mode: "isolated" | "shared";
  base: string | null;
  base_head: string | null;
  generation: number;
  /** sha256 of the current generation's run token; the token itself is never stored. */
  run_token_hash: string;
  state: WorkerState;
  exited: number;
  exit_code: number | null;
  exited_at: string | null;
  tmux_session: string | null;
  window_id: string | null;
  pane_id: string | null;
  heartbeat_at: string | null;
  /** The process starting this generation until the worker's first heartbeat, then the worker's own process. */
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
}

export interface NewWorker {
  task: string;
  kind: string;
  agent: WorkerAgent;
  command?: string;
  execution: unknown;
  /** Names of the --env variables (never their values). */
  envNames?: readonly string[];
  cwd: string;
  projectRoot: string;
  /** Filled in by the caller once it knows the id (e.g. `<home>/fleet/<id>/workspace`). */
  workspace: (id: string) => string;
  workspaceMode: "isolated" | "shared";
  base?: string;
  baseHead?: string;
  /** The plain token of generation 1; only its hash is written. */
  runToken: string;
  sourceHandoff?: unknown;
  /** The process running the spawn: a start whose spawner died is reconciled (issue 19). */
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
  statement(tx.db, 
      `INSERT INTO workers (id, seq, task, kind, agent, command, execution, env, cwd, project_root, workspace, workspace_mode,
        base, base_head, generation, run_token_hash, state, source_handoff, pid, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, 'starting', ?, ?, ?, ?)`,
    )
    .run(
      id, seq, w.task, w.kind, w.agent, w.command ?? null, JSON.stringify(w.execution), JSON.stringify(w.envNames ?? []),
      w.cwd, w.projectRoot, w.workspace(id), w.workspaceMode, w.base ?? null, w.baseHead ?? null, hashRunToken(w.runToken),
      w.sourceHandoff === undefined ? null : JSON.stringify(w.sourceHandoff), w.spawnerPid ?? null, tx.now, tx.now,
    );
  statement(tx.db, "INSERT INTO launches (worker, generation, run_token_hash, started_at) VALUES (?, 1, ?, ?)").run(id, hashRunToken(w.runToken), tx.now);
  tx.emit("worker.status", { worker: id });
  return id;
}

export function getWorker(db: Db, id: string): WorkerRow | undefined {
  return statement(db, "SELECT * FROM workers WHERE id = ? AND deleted_at IS NULL").get(id) as WorkerRow | undefined;
}

export function requireWorker(db: Db, id: string): WorkerRow {
  const row = getWorker(db, id);
  if (!row) throw notFound("worker-not-found", `no worker ${id}`, "run `docket ls --all` to see workers");
  return row;
}

export interface WorkerIdentity {
  worker: string;
  generation: number;
  runToken?: string;
}

/** True when `token` is the run token the row's current generation was launched with. */
export function runTokenMatches(row: Pick<WorkerRow, "run_token_hash">, token: string): boolean {
  return hashRunToken(token) === row.run_token_hash;
}

/**
 * The fence: a call is accepted only from the worker's current generation (and run token, when given)
 * while that process has not exited. A stale generation was replaced; a wrong token at the right one is an impostor.
 */
export function checkFence(tx: Tx, who: WorkerIdentity): WorkerRow {
  const row = requireWorker(tx.db, who.worker);
  if (who.generation !== row.generation) {
    throw fenced(
      "generation-replaced",
      `${who.worker} generation ${who.generation} was replaced by generation ${row.generation}; this process was replaced and its reports are refused`,
    );
  }
  if (who.runToken !== undefined && !runTokenMatches(row, who.runToken)) {
    throw fenced(
      "run-token-mismatch",
      `${who.worker} generation ${who.generation}: the run token does not match the one this generation was launched with; the call is refused`,
      "only the process Docket launched may speak for a worker; its token is in that process's own environment",
    );
  }
  if (row.exited) {
    throw fenced("worker-exited", `${who.worker} generation ${who.generation} has exited; the process was replaced or stopped and its reports are refused`);
  }
  return row;
}

/** Applies a partial update to a worker row and queues its status.json projection. */
export function updateWorker(tx: Tx, id: string, patch: Partial<Omit<WorkerRow, "id" | "seq">>): void {
  const keys = Object.keys(patch);
  if (keys.length === 0) return;
  const sets = keys.map((k) => `${k} = @${k}`).join(", ");
  statement(tx.db, `UPDATE workers SET ${sets}, updated_at = @__now WHERE id = @__id`).run({ ...patch, __now: tx.now, __id: id });
  tx.emit("worker.status", { worker: id });
}
