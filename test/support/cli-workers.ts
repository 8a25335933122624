// The worker-commands fixture of the CLI tests: a git repo, a Docket home with its config, a private tmux server,
// and the CLI run in that repo, as the human or as one worker's identity.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket, type CliRun } from "./docket-cli.js";
import { gitRepo } from "./git.js";
import { tempDir } from "./temp.js";
import { tmuxServer, type TmuxServer } from "./tmux.js";
export interface Fixture {
  repo: string;
  home: string;
  server: TmuxServer;
  env: NodeJS.ProcessEnv;
  run(...args: string[]): CliRun;
  as(identity: { worker: string; generation: number; runToken: string }, ...args: string[]): CliRun;
}

export function fixture(t: { after(fn: () => void): void }, config: unknown = {}): Fixture {
  const root = tempDir(t);
  const repo = gitRepo(mkdirp(join(root, "repo")), { "a.txt": "one\n", ".gitignore": "secret.env\n" });
  const home = join(root, "docket");
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  mkdirSync(join(root, "tmp"));
  const server = tmuxServer(t);
  const env = cliEnv({
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: server.socket,
    HOME: root,
    TMPDIR: join(root, "tmp"),
    PI_CODING_AGENT_DIR: join(root, "agent"),
  });
  return {
    repo,
    home,
    server,
    env,
    run: (...args) => docket({ env, cwd: repo }, ...args),
    as: (who, ...args) =>
      docket(
        {
          env: {
            ...env,
            DOCKET_WORKER_ID: who.worker,
            DOCKET_GENERATION: String(who.generation),
            DOCKET_RUN_TOKEN: who.runToken,
          },
          cwd: repo,
        },
        ...args,
      ),
  };
}

/** Window names on the private server ("" once the server has exited with its last window). */
export function windows(f: Fixture): string {
  try {
    return f.server.tmux("list-windows", "-a", "-F", "#{window_name}");
  } catch {
    return "";
  }
}

export function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function show(f: Fixture, worker: string): any {
  const r = f.run("show", worker, "--json");
  assert.equal(r.code, 0, r.stderr + r.stdout);
  return r.json;
}

/** The run token as the worker's own process saw it (its command writes it to token.txt). */
export function readEnvToken(f: Fixture, worker: string): string {
  return readFileSync(join(f.home, "fleet", worker, "token.txt"), "utf8").trim();
}
