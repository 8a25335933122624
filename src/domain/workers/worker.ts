// A worker as every layer above the ledger sees it: one fleet row in camelCase, its JSON columns parsed and validated.
// The row is the authority for state and generation; the files under fleet/<id>/ are claimed or projected from it
// (docs/decisions/workers.md).

import type { SourceHandoff } from "../deliverables/deliverable.js";
import type { LaunchExecution } from "./execution.js";
import type { PersistedState } from "./lifecycle.js";
import type { WorkerAgent } from "./spawn-policy.js";
import type { Todo } from "./todos.js";

export type WorkspaceMode = "isolated" | "shared";

export interface Worker {
  id: string;
  seq: number;
  task: string;
  kind: string;
  agent: WorkerAgent;
  command: string | null;
  /** What a relaunch repeats; null when the row's execution is not a launchable shape. */
  execution: LaunchExecution | null;
  /** Names of the worker's --env variables; their values live only in its launch env file. */
  envNames: string[];
  cwd: string;
  projectRoot: string;
  workspace: string;
  workspaceMode: WorkspaceMode;
  base: string | null;
  baseHead: string | null;
  generation: number;
  /** sha256 of the current generation's run token; the token itself is never stored. */
  runTokenHash: string;
  state: PersistedState;
  exited: boolean;
  exitCode: number | null;
  exitedAt: string | null;
  tmuxSession: string | null;
  windowId: string | null;
  paneId: string | null;
  heartbeatAt: string | null;
  /** The process starting this generation until the worker's first heartbeat, then the worker's own process. */
  pid: number | null;
  modelInEffect: string | null;
  thinkingInEffect: string | null;
  deliverableId: string | null;
  deliverableVersion: number | null;
  deliverableRef: string | null;
  summary: string | null;
  outcome: string | null;
  lastError: string | null;
  sourceHandoff: SourceHandoff | null;
  paneCapturedAt: string | null;
  reviewedAt: string | null;
  settledAt: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  /** The current generation runs inside Docket's sandbox (docs/containment.md). */
  contained: boolean;
}

/** What a command may change on a worker (the ledger stamps updatedAt itself). */
export type WorkerPatch = Partial<Omit<Worker, "id" | "seq" | "execution" | "envNames" | "createdAt" | "updatedAt">> & {
  todos?: Todo[];
};
