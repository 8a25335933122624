// Writes workers/<id>/status.json: a projection of the worker row for external readers, never read back.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../files/atomic.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";

export function writeWorkerStatus(ctx: EngineContext, workerId: string): void {
  const row = getWorker(ctx.db, workerId);
  if (!row) return;
  const dir = ctx.home.workerDir(row.id);
  if (!existsSync(dir)) return; // the worker's directory is created by spawn; nothing to project into yet
  const status = {
    id: row.id,
    task: row.task,
    kind: row.kind,
    agent: row.agent,
    state: row.state,
    generation: row.generation,
    exited: row.exited === 1,
    exitCode: row.exit_code,
    workspace: row.workspace,
    workspaceMode: row.workspace_mode,
    tmux: { session: row.tmux_session, windowId: row.window_id, paneId: row.pane_id },
    heartbeatAt: row.heartbeat_at,
    deliverable: row.deliverable_id ? { id: row.deliverable_id, version: row.deliverable_version, ref: row.deliverable_ref } : null,
    updatedAt: row.updated_at,
    note: "projection of the Docket ledger; editing this file changes nothing",
  };
  writeFileAtomic(join(dir, "status.json"), `${JSON.stringify(status, null, 2)}\n`);
}
