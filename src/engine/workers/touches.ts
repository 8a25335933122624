// What a worker read and edited, as its own process saw it: paths from its tool calls, turned into project
// coordinates inside one fenced command (its worktree prefix removed; paths outside the project are dropped).

import { toProjectPath } from "../../domain/talk/project-paths.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { recordTouchedPaths, type TouchKind } from "../../ledger/workers/touched-paths.js";
import { runFenced } from "../protocol/fenced.js";
import type { EngineContext } from "../context.js";
import { periodicKey } from "./lifecycle.js";

export interface RawTouch {
  /** The path as the tool was given it (relative to the worker's workspace, or absolute). */
  path: string;
  how: TouchKind;
}

/** Records the paths not recorded yet; returns how many were new. */
export function recordTouches(
  ctx: EngineContext,
  who: WorkerIdentity,
  touches: readonly RawTouch[],
  callId?: string,
): number {
  if (touches.length === 0) return 0;
  return runFenced(
    ctx,
    { command: "worker.touches", who, request: { who, touches }, key: periodicKey("touches", who, callId) },
    (tx, row) => {
      const where = { workspace: row.workspace, projectRoot: row.projectRoot };
      const paths = touches.flatMap((t) => {
        const path = toProjectPath(t.path, where);
        return path ? [{ path, how: t.how }] : [];
      });
      return recordTouchedPaths(tx, row.id, paths);
    },
  );
}
