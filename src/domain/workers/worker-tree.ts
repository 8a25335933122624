// What the ledger says about a worker's own tree, for every git call on it: the project, the workspace, the worker
// (whose name fixes the worktree's admin directory) and how it was made. Never read from the workspace itself.

import type { Worker } from "./worker.js";

export interface WorkerTreeRef {
  projectRoot: string;
  workspace: string;
  worker: string;
  /** `worktree`: a linked worktree of the project; `copy`: a copied tree with its own repository (no parent HEAD at spawn). */
  method: "worktree" | "copy";
}

export function workerTreeOf(row: Pick<Worker, "id" | "projectRoot" | "workspace" | "baseHead">): WorkerTreeRef {
  return {
    projectRoot: row.projectRoot,
    workspace: row.workspace,
    worker: row.id,
    method: row.baseHead === null ? "copy" : "worktree",
  };
}
