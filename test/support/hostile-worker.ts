// A human's project with uncommitted work, a real `docket` CLI, and command workers the test plays from inside their
// workspaces: the ground for test/hostile/. Every attack uses only files in the worker's own workspace.

import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { cliGround } from "./cli-workers.js";
import { cliEnv, docketWith, type CliRun } from "./docket-cli.js";
import { git } from "./git.js";
import { workerIdentityEnv } from "./launch-env.js";
import { identityEnv, type ProtocolWorker } from "./protocol-worker.js";
import { ledgerRows } from "./snapshot.js";
import { waitFor } from "./wait.js";
import { workLedger } from "./work-ledger.js";

type T = { after(fn: () => void): void };

export interface HostileGround {
  root: string;
  project: string;
  home: string;
  /** A file any planted program would create; it must never appear. */
  marker: string;
  env: NodeJS.ProcessEnv;
  human(...args: string[]): CliRun;
}

export function hostileGround(t: T): HostileGround {
  const g = cliGround(t, {
    prefix: "docket-hostile-",
    repoDir: "project",
    homeDir: "home",
    files: { "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n", "README.md": "hello\n" },
  });
  // The human's own uncommitted work: an edit and an untracked file, which nothing may touch.
  writeFileSync(join(g.repo, "README.md"), "hello, work in progress\n");
  writeFileSync(join(g.repo, "notes.txt"), "my untracked notes\n");
  return { root: g.root, project: g.repo, home: g.home, marker: join(g.root, "PWNED"), env: g.env, human: g.run };
}

/**
 * A work ledger with the real CLI run as the human in a worker's project, or as that worker's own process in its
 * workspace (no tmux: nothing here is spawned; the workers are rows with worktrees, from isolatedWorker).
 */
export function ledgerCli(t: T) {
  const { ctx, home } = workLedger(t);
  const human =
    (w: ProtocolWorker) =>
    (...args: string[]) =>
      docketWith({ env: cliEnv({ DOCKET_HOME: home, HOME: home }), cwd: w.project, input: "" }, ...args);
  const worker =
    (w: ProtocolWorker) =>
    (args: string[], input = "") =>
      docketWith(
        {
          env: cliEnv({
            DOCKET_HOME: home,
            HOME: home,
            ...identityEnv(w),
          }),
          cwd: w.workspace,
          input,
        },
        ...args,
      );
  return { ctx, home, human, worker };
}

export interface HostileWorker {
  id: string;
  workspace: string;
  /** Runs `docket …` as the worker's own process, from inside its workspace (optionally with its own PATH). */
  run(args: string[], options?: { input?: string; path?: string }): CliRun;
  /** Publishes the workspace as it is now through `docket worker done`. */
  done(summary?: string, options?: { path?: string }): CliRun;
}

export async function hostileWorker(g: HostileGround, task = "change the code"): Promise<HostileWorker> {
  const spawned = g.human("spawn", "--agent", "command", "--cmd", "sleep 600", "--yes", "--json", task);
  if (spawned.code !== 0) throw new Error(`spawn failed: ${spawned.stderr}${spawned.stdout}`);
  const id: string = spawned.json.worker;
  const workspace = join(g.home, "fleet", id, "workspace");
  const identity = await waitFor(
    `${id}'s launch env file`,
    () => existsSync(join(g.home, "fleet", id, "launch.env")) && workerIdentityEnv(g.home, id),
  );
  const run: HostileWorker["run"] = (args, options = {}) =>
    docketWith(
      {
        env: { ...g.env, ...identity, ...(options.path ? { PATH: options.path } : {}) },
        cwd: workspace,
        input: options.input,
      },
      ...args,
    );
  return {
    id,
    workspace,
    run,
    done: (summary = "done", options = {}) =>
      run(["worker", "done", "--outcome", "completed", "--summary", summary, "--json"], {
        input: "The change.\n",
        path: options.path,
      }),
  };
}

/** An executable shell script that creates the marker (and passes stdin through, so it also works as a filter). */
export function markerScript(g: HostileGround, dir: string, name = "planted.sh"): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ntouch '${g.marker}'\ncat\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * A git directory of the worker's making inside its workspace: HEAD at its base, the real objects as an alternate,
 * and a config holding whatever it likes (core.fsmonitor, core.worktree, …).
 */
export function fakeGitDir(g: HostileGround, w: HostileWorker, config: string): string {
  const dir = join(w.workspace, ".not-git");
  mkdirSync(join(dir, "objects", "info"), { recursive: true });
  mkdirSync(join(dir, "refs", "heads"), { recursive: true });
  writeFileSync(join(dir, "HEAD"), `${git(w.workspace, "rev-parse", "HEAD").trim()}\n`);
  writeFileSync(join(dir, "objects", "info", "alternates"), `${join(g.project, ".git", "objects")}\n`);
  writeFileSync(join(dir, "config"), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${config}`);
  return dir;
}

/** Every entry under `dir` (its `.git` directory included) with its kind and the sha256 of its bytes. */
export function checkoutBytes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const rel = relative(dir, path);
      const s = lstatSync(path);
      // git's own bookkeeping files that a read refreshes are left out; config, hooks, HEAD and refs are kept.
      if (/^\.git\/(index|logs|worktrees|objects|FETCH_HEAD|ORIG_HEAD)/.test(rel)) continue;
      if (s.isDirectory()) walk(path);
      else
        out[rel] = s.isSymbolicLink()
          ? `link ${readlinkSync(path)}`
          : createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

/** The decisions the ledger holds, as `verb actor ref` lines. */
export function decisions(g: HostileGround): string[] {
  return (
    ledgerRows(join(g.home, "ledger.sqlite")).decisions as {
      verb: string;
      actor: string;
      deliverable_ref: string | null;
    }[]
  ).map((d) => `${d.verb} ${d.actor} ${d.deliverable_ref ?? "-"}`);
}

/**
 * The worker writes `newB` into src/b.ts, marks it `-diff` in its own info/attributes (and, with `inTree`, in a
 * `.gitattributes` too) and adds a file that is not UTF-8, so its next done freezes the change set as a git binary
 * patch: b.ts is text at the base and after it.
 */
export function freezeTextAsBinary(w: HostileWorker, newB: string, options: { inTree?: boolean } = {}): void {
  const attributes = join(w.workspace, git(w.workspace, "rev-parse", "--git-path", "info/attributes").trim());
  mkdirSync(join(attributes, ".."), { recursive: true });
  writeFileSync(attributes, "src/b.ts -diff\n");
  if (options.inTree) writeFileSync(join(w.workspace, ".gitattributes"), "src/b.ts -diff\n");
  writeFileSync(join(w.workspace, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  writeFileSync(join(w.workspace, "src/b.ts"), newB);
}
