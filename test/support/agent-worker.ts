// A project, a Docket home, a private tmux server and an isolated HOME for driving real Claude Code / Codex workers.
// Everything the agent reads or writes lives in temp dirs; the only network is the test's own model server on 127.0.0.1.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliEnv, docket, type CliRun } from "./docket-cli.js";
import { gitRepo } from "./git.js";
import { tempDir } from "./temp.js";
import { tmuxServer, type TmuxServer } from "./tmux.js";
import { waitFor } from "./wait.js";
import type { FakeModelServer } from "./fake-model-server.js";
import { writeUngatedKind } from "./scripted-pi.js";

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
  /** waitFor with w1's screen in the message when it times out (what the agent was showing tells why). */
  until<T>(what: string, check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  /** Adds this model server's request log to `until`'s timeout message. */
  watch(model: FakeModelServer): void;
  /** Writes the user config (config.json in the Docket home). */
  configure(config: unknown): void;
}

export const PROJECT_FILES: Record<string, string> = { "README.md": "hello\n", "src/app.txt": "one\ntwo\nthree\n" };

export function agentGround(t: { after(fn: () => void | Promise<void>): void }): AgentGround {
  // The test's teardown kills the server, waits for every agent process (found by pid, or by DOCKET_HOME in its
  // environment), then removes the directories: the agents never write into a removed home.
  const server = tmuxServer(t);
  const home = tempDir(t, "docket-agent-home-");
  const repo = gitRepo(tempDir(t, "docket-agent-repo-"), PROJECT_FILES);
  const userHome = tempDir(t, "docket-agent-user-");
  const env = cliEnv({
    DOCKET_HOME: home,
    HOME: userHome,
    TMPDIR: tempDir(t, "docket-agent-tmp-"),
    DOCKET_TMUX_SOCKET: server.socket,
  });
  // An ungated writable kind: a plan-gated worker's edits are refused (Claude Code's PreToolUse hook asks the door).
  writeUngatedKind(home);
  let watched: FakeModelServer | undefined;
  const ground: AgentGround = {
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
    workspace: (worker) => join(home, "fleet", worker, "workspace"),
    until: (what, check, timeoutMs = 90_000) =>
      waitFor(what, check, timeoutMs).catch((error: Error) => {
        const screen = docket({ env, cwd: repo }, "peek", "w1", "--lines", "60");
        throw new Error(
          `${error.message}\n--- w1's screen ---\n${screen.stdout}${screen.stderr}${watched ? `\n--- model requests ---\n${watched.describe()}` : ""}`,
        );
      }),
    watch: (model) => void (watched = model),
    configure: (config) => writeFileSync(join(home, "config.json"), JSON.stringify(config)),
  };
  return ground;
}

/**
 * After the tmux server is gone: waits (bounded) until every process that carries this Docket home in its environment
 * (the agents, their MCP servers, hooks and shells, all started by this test) has exited; stragglers are killed by pid.
 */
