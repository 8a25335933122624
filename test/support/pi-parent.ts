// A Docket parent fixture: a temp git repo, hermetic DOCKET_HOME / pi agent dir / TMPDIR / HOME, a private tmux
// server, the scripted model's script and logs, and the docket CLI playing the human's other terminal or a worker.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliEnv, docket } from "./docket-cli.js";
import { gitRepo } from "./git.js";
import { workerIdentityEnv } from "./launch-env.js";
import { CONTEXT_LOG_EXTENSION, parentPiArgs, startPiRpc, type PiRpc } from "./pi-rpc.js";
import { piHome } from "./pi-home.js";
import { tmuxServer, type TmuxServer } from "./tmux.js";

export interface Parent {
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
  modelLog: string;
  contextLog: string;
  start(): PiRpc;
  /** The docket CLI in the same project and home (the human's other terminal). */
  cli(...args: string[]): ReturnType<typeof docket>;
  /** The docket CLI as a worker process of w<N>: identity from its launch env file, as its own process carries it. */
  asWorker(worker: string, ...args: string[]): ReturnType<typeof docket>;
  ledger<T>(fn: (db: Database.Database) => T): T;
  tmux: TmuxServer;
}

export function parentFixture(
  t: { after(fn: () => void | Promise<void>): void },
  script: unknown[] = [{ text: "ok" }],
): Parent {
  const pi = piHome(t, "docket-parent-");
  const { root } = pi;
  const dirs = { home: pi.home, repo: join(root, "repo") };
  mkdirSync(dirs.repo);
  gitRepo(dirs.repo);
  writeFileSync(join(root, "script.json"), JSON.stringify(script));
  const tmux = tmuxServer(t);
  const vars = {
    ...pi.vars,
    DOCKET_TMUX_SOCKET: tmux.socket,
    DOCKET_SCRIPTED_MODEL: join(root, "script.json"),
    DOCKET_SCRIPTED_MODEL_LOG: join(root, "model.log"),
    DOCKET_TEST_CONTEXT_LOG: join(root, "context.log"),
  };
  const env = cliEnv(vars);
  const p: Parent = {
    tmux,
    repo: dirs.repo,
    home: dirs.home,
    env,
    modelLog: vars.DOCKET_SCRIPTED_MODEL_LOG,
    contextLog: vars.DOCKET_TEST_CONTEXT_LOG,
    start: () =>
      startPiRpc(t, {
        cwd: dirs.repo,
        env,
        args: parentPiArgs({ mode: "rpc", extraExtensions: [CONTEXT_LOG_EXTENSION] }),
      }),
    cli: (...args) => docket({ env, cwd: dirs.repo }, ...args),
    asWorker: (worker, ...args) => {
      return docket({ env: { ...env, ...workerIdentityEnv(dirs.home, worker) }, cwd: dirs.repo }, ...args);
    },
    ledger: (fn) => {
      const db = new Database(join(dirs.home, "ledger.sqlite"), { readonly: true });
      try {
        return fn(db);
      } finally {
        db.close();
      }
    },
  };
  return p;
}
