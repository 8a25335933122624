// A worker row with a real isolated git worktree as its workspace (base = the project's HEAD), for protocol tests.
// The worker row is inserted directly: spawn itself is not under test here.

import { join } from "node:path";
import type { EngineContext } from "../../src/engine/context.js";
import { insertWorker, updateWorker } from "../../src/ledger/workers/workers.js";
import { git, gitRepo } from "./git.js";
import { tempDir } from "./temp.js";

export interface ProtocolWorker {
  worker: string;
  generation: number;
  runToken: string;
  workspace: string;
  project: string;
  base: string;
}

/** The protocol tools every worker is given, by name, sorted. */
export const WORKER_TOOLS = ["consult", "done", "fail", "note", "todos", "wait"].map((n) => `docket_${n}`);

/** The variables a worker's own process runs with: its id, generation and run token. */
export function identityEnv(who: { worker: string; generation: number; runToken: string }): Record<string, string> {
  return { DOCKET_WORKER_ID: who.worker, DOCKET_GENERATION: String(who.generation), DOCKET_RUN_TOKEN: who.runToken };
}

/** An isolated pi worker's row on `project`, inserted as spawn would; `key` tells apart calls with the same token. */
export function insertIsolatedRow(
  ctx: EngineContext,
  project: string,
  runToken: string,
  key: Record<string, unknown> = {},
): string {
  return ctx.commands.run("test.worker", { runToken, project, ...key }, (tx) =>
    insertWorker(tx, {
      task: "change the app",
      kind: "general",
      agent: "pi",
      execution: {},
      cwd: project,
      projectRoot: project,
      workspace: (id) => join(ctx.home.workers, id, "workspace"),
      workspaceMode: "isolated",
      runToken,
    }),
  ).result;
}

export function isolatedWorker(
  t: { after(fn: () => void): void },
  ctx: EngineContext,
  options: { files?: Record<string, string>; runToken?: string; project?: string } = {},
): ProtocolWorker {
  const project =
    options.project ??
    gitRepo(
      tempDir(t, "docket-project-"),
      options.files ?? { "README.md": "hello\n", "src/app.txt": "one\ntwo\nthree\n" },
    );
  const runToken = options.runToken ?? "token-1";
  const worker = insertIsolatedRow(ctx, project, runToken);
  const workspace = join(ctx.home.workers, worker, "workspace");
  // As spawn does: the admin directory is named docket-<worker>, the folder is `workspace` (worker-git derives the first).
  const staging = join(ctx.home.workers, worker, `docket-${worker}`);
  git(project, "worktree", "add", "-q", "--detach", staging, "HEAD");
  git(project, "worktree", "move", staging, workspace);
  const base = git(workspace, "rev-parse", "HEAD").trim();
  ctx.commands.run("test.worker.base", { worker, base }, (tx) =>
    updateWorker(tx, worker, { base, baseHead: base, state: "active" }),
  );
  return { worker, generation: 1, runToken, workspace, project, base };
}
