// The ground of the CLI tests: a git repo, a Docket home, a private tmux server, and the CLI run in that repo, as
// the human or (the worker-commands fixture) as one worker's identity.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { identityEnv } from "./protocol-worker.js";
import { AS_CONFIGURED, cliEnv, docket, type CliRun } from "./docket-cli.js";
import { gitRepo } from "./git.js";
import { tempDir } from "./temp.js";
import { tmuxServer, type TmuxServer } from "./tmux.js";
export interface CliGround {
  root: string;
  repo: string;
  home: string;
  server: TmuxServer;
  env: NodeJS.ProcessEnv;
  /** The real CLI in the repo, as the human. */
  run(...args: string[]): CliRun;
}

export interface GroundOptions {
  /** The repo's committed files (default a.txt). */
  files?: Record<string, string>;
  /** Written as the home's config.json; without it (or `sandbox`) the home is left for Docket to create. */
  config?: Record<string, unknown>;
  /**
   * Workers contained as the config says: its sandbox with these settings shows the whole root read-only, and the
   * CLI runs with the sandbox as configured (AS_CONFIGURED). `config` may replace the sandbox.
   */
  sandbox?: Record<string, unknown>;
  /** Where the repo and the home stand, under the root (default "repo" and "docket"); the home may be elsewhere. */
  repoDir?: string;
  homeDir?: string;
  /** The user's HOME, a directory made under the root (default the root itself). */
  userHome?: string;
  /** The temp root's name prefix. */
  prefix?: string;
  /** More variables in the CLI's environment. */
  env?: Record<string, string>;
}

/**
 * A temp root holding a git repo, a Docket home and tmp/, a private tmux server, and the CLI environment over them
 * (HOME is the root unless `userHome` says; the pi agent directory is inside it).
 */
export function cliGround(t: { after(fn: () => void): void }, options: GroundOptions = {}): CliGround {
  const root = tempDir(t, options.prefix);
  const repo = gitRepo(mkdirp(join(root, options.repoDir ?? "repo")), options.files ?? { "a.txt": "one\n" });
  const home = resolve(root, options.homeDir ?? "docket");
  const sandbox = options.sandbox && { sandbox: { readOnlyPaths: [root], ...options.sandbox } };
  const config = sandbox || options.config ? { ...sandbox, ...options.config } : undefined;
  if (config) writeFileSync(join(mkdirp(home), "config.json"), JSON.stringify(config));
  mkdirSync(join(root, "tmp"));
  const server = tmuxServer(t);
  const env = cliEnv({
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: server.socket,
    HOME: options.userHome ? mkdirp(join(root, options.userHome)) : root,
    TMPDIR: join(root, "tmp"),
    PI_CODING_AGENT_DIR: mkdirp(join(root, "agent")),
    ...(options.sandbox ? AS_CONFIGURED : {}),
    ...options.env,
  });
  return { root, repo, home, server, env, run: (...args) => docket({ env, cwd: repo }, ...args) };
}

export interface Fixture extends CliGround {
  as(identity: { worker: string; generation: number; runToken: string }, ...args: string[]): CliRun;
}

export function fixture(t: { after(fn: () => void): void }, config: Record<string, unknown> = {}): Fixture {
  const g = cliGround(t, { files: { "a.txt": "one\n", ".gitignore": "secret.env\n" }, config });
  return {
    ...g,
    as: (who, ...args) => docket({ env: { ...g.env, ...identityEnv(who) }, cwd: g.repo }, ...args),
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
