// The ground for test/hostile/door-*: a project, a home (optionally on a small tmpfs), contained command workers whose
// scripts attack the door from inside their sandbox, and an honest worker whose heartbeats must keep landing.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { cliGround } from "./cli-workers.js";
import { assertExit, DOCKET_BIN, type CliRun } from "./docket-cli.js";
import { workerIdentityEnv } from "./launch-env.js";
import { waitFor } from "./wait.js";

type T = { after(fn: () => void): void };

export interface DoorGround {
  root: string;
  project: string;
  home: string;
  env: NodeJS.ProcessEnv;
  human(...args: string[]): CliRun;
}

/** A project and a home (`home` given: that directory, e.g. a tmpfs) whose user config is `config`. */
export function doorGround(t: T, config: Record<string, unknown> = {}, home?: string): DoorGround {
  const g = cliGround(t, {
    prefix: "docket-door-abuse-",
    repoDir: "project",
    homeDir: home ?? "home",
    files: { "src/a.ts": "export const a = 1;\n", "README.md": "hello\n" },
    sandbox: { mode: "required" },
    config,
  });
  return { root: g.root, project: g.repo, home: g.home, env: g.env, human: g.run };
}

export interface ContainedWorker {
  id: string;
  /** Its scratch directory ($TMPDIR inside the sandbox), where its script writes what it saw. */
  scratch: string;
  workspace: string;
  /** `docket <args>` as this worker's own process (its identity, its door), `input` on stdin, without blocking the test. */
  call(args: string[], input?: string): Promise<CliRun>;
}

/** A contained command worker running `script` (a shell command line) in its sandbox. */
export async function containedWorker(g: DoorGround, script: string, task = "work"): Promise<ContainedWorker> {
  const r = g.human("spawn", "--agent", "command", "--cmd", script, "--yes", "--json", task);
  assertExit(r, 0);
  const id: string = r.json.worker;
  const identity = await waitFor(
    `${id}'s launch env`,
    () => existsSync(join(g.home, "fleet", id, "launch.env")) && workerIdentityEnv(g.home, id),
  );
  const workspace = join(g.home, "fleet", id, "workspace");
  return {
    id,
    scratch: join(g.home, "fleet", id, "scratch"),
    workspace,
    call: (args, input = "") => docketWithInput({ env: { ...g.env, ...identity }, cwd: workspace }, input, args),
  };
}

function docketWithInput(
  options: { env: NodeJS.ProcessEnv; cwd: string },
  input: string,
  args: string[],
): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [DOCKET_BIN, ...args], { ...options, timeout: 120_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code, signal) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {}
      done({ code: code ?? -1, stdout, stderr, json, signal });
    });
    child.stdin.end(input);
  });
}

/** The line the worker's script wrote to `<scratch>/<name>` once it holds `done` (polled; the file may be half made). */
export function scratchLine(w: ContainedWorker, name: string, done: RegExp): () => string | undefined {
  return () => {
    try {
      const text = readFileSync(join(w.scratch, name), "utf8");
      return done.test(text) ? text : undefined;
    } catch {
      return undefined;
    }
  };
}

/** The pid of the door serving `home`, from its state file, while that process lives. */
export function doorPid(home: string): number | undefined {
  try {
    const state = JSON.parse(readFileSync(join(home, "door-control", "state.json"), "utf8")) as { pid: number };
    return existsSync(`/proc/${state.pid}`) ? state.pid : undefined;
  } catch {
    return undefined;
  }
}

/** The honest worker's heartbeat through the real client: it must succeed (exit 0) within the client's retry window. */
export async function honestHeartbeat(w: ContainedWorker): Promise<void> {
  assertExit(await w.call(["worker", "heartbeat"]), 0);
}

/** A node program a worker's script runs inside its sandbox: written under the test root (read-only there). */
export function nodeScript(g: DoorGround, name: string, code: string): string {
  const path = join(g.root, `${name}.cjs`);
  writeFileSync(path, code);
  return `"$DOCKET_NODE" ${path}`;
}
