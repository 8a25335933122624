// Writes fleet/<id>/status.json: a projection of the worker row for external readers, never read back.
// Only into a directory that exists (a failed spawn or a delete removes it), never into an old `workers/w<N>/`
// directory: pi-docket reads status files there and throws on this shape.

import { STATUS_NOTE } from "../../files/workers/legacy-status.js";
import { WORKER_FILES, writeWorkerProjection } from "../../files/workers/worker-files.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";

export function writeWorkerStatus(ctx: EngineContext, workerId: string): void {
  const row = getWorker(ctx.db, workerId);
  if (!row) return;
  if (ctx.home.isLegacyWorkerDir(row.id)) return;
  const status = {
    id: row.id,
    task: row.task,
    kind: row.kind,
    agent: row.agent,
    state: row.state,
    generation: row.generation,
    exited: row.exited,
    exitCode: row.exitCode,
    workspace: row.workspace,
    workspaceMode: row.workspaceMode,
    tmux: { session: row.tmuxSession, windowId: row.windowId, paneId: row.paneId },
    heartbeatAt: row.heartbeatAt,
    deliverable: row.deliverableId
      ? { id: row.deliverableId, version: row.deliverableVersion, ref: row.deliverableRef }
      : null,
    updatedAt: row.updatedAt,
    note: STATUS_NOTE,
  };
  writeWorkerProjection(ctx.home, row.id, WORKER_FILES.status, `${JSON.stringify(status, null, 2)}\n`);
}
