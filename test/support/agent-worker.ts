// A project, a Docket home, a private tmux server and an isolated HOME for driving real Claude Code / Codex workers.
// Everything the agent reads or writes lives in temp dirs; the only network is the test's own model server on 127.0.0.1.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliEnv, docket, type CliRun } from "./docket-cli.js";
import { gitRepo } from "./git.js";
import { tempDir } from "./temp.js";
import { tmuxServer, type TmuxServer } from "./tmux.js";

export interface AgentGround {
  repo: string;
  home: string;
  server: TmuxServer;
  env: NodeJS.ProcessEnv;
  run(...args: string[]): CliRun;
  /** One row of the ledger, read through a fresh read-only connection. */
  row(sql: string, ...params: unknown[]): any;
  /** The worker's workspace path (isolated kinds). */
  workspace(worker: string): string;
}

export const PROJECT_FILES: Record<string, string> = { "README.md": "hello\n", "src/app.txt": "one\ntwo\nthree\n" };

export function agentGround(t: { after(fn: () => void): void }, options: { config?: unknown } = {}): AgentGround {
  // First, so its kill runs before the directories go: the agents must stop writing into them.
  const server = tmuxServer(t);
  const repo = gitRepo(tempDir(t, "docket-agent-repo-"), PROJECT_FILES);
  const home = tempDir(t, "docket-agent-home-");
  const userHome = tempDir(t, "docket-agent-user-");
  if (options.config !== undefined) writeFileSync(join(home, "config.json"), JSON.stringify(options.config));
  const env = cliEnv({ DOCKET_HOME: home, HOME: userHome, TMPDIR: tempDir(t, "docket-agent-tmp-"), DOCKET_TMUX_SOCKET: server.socket });
  return {
    repo,
    home,
    server,
    env,
    run: (...args) => docket({ env, cwd: repo }, ...args),
    row: (sql, ...params) => {
      const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
      try {
        return db.prepare(sql).get(...params);
      } finally {
        db.close();
      }
    },
    workspace: (worker) => join(home, "workers", worker, "workspace"),
  };
}
