// Runs the real `docket` CLI (node bin/docket.js) in a child process with an explicit environment.
// Tests always pass a temp DOCKET_HOME and a private DOCKET_TMUX_SOCKET; the caller's HOME is never used.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const DOCKET_BIN = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "docket.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document (undefined when it is not JSON). */
  json: any;
  /** The signal that ended the process (the deadline's SIGTERM), or null when it exited by itself. */
  signal: NodeJS.Signals | null;
}

export interface CliOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Standard input: text, or a file descriptor to hand over (e.g. one opened on /dev/zero). */
  input?: string | number;
  /** Killed after this long (default 120 s): a deadline for commands that must not hang. */
  timeoutMs?: number;
  /** Runs under `umask <octal>` (through sh), to prove modes do not depend on it. */
  umask?: string;
}

export function docketWith(options: CliOptions, ...args: string[]): CliRun {
  const argv =
    options.umask === undefined
      ? [process.execPath, DOCKET_BIN, ...args]
      : ["sh", "-c", `umask ${options.umask} && exec "$0" "$@"`, process.execPath, DOCKET_BIN, ...args];
  const stdin = typeof options.input === "number" ? options.input : "pipe";
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: options.cwd,
    env: options.env,
    encoding: "utf8",
    timeout: options.timeoutMs ?? 120_000,
    stdio: [stdin, "pipe", "pipe"],
    ...(typeof options.input === "string" ? { input: options.input } : {}),
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: parseJson(r.stdout), signal: r.signal };
}

export function docket(options: { env: NodeJS.ProcessEnv; cwd: string; input?: string }, ...args: string[]): CliRun {
  return docketWith({ ...options, input: options.input ?? "" }, ...args);
}

/** The same run without blocking, so several commands can run at the same moment (a burst of spawns). */
export function docketAsync(options: { env: NodeJS.ProcessEnv; cwd: string }, ...args: string[]): Promise<CliRun> {
  return nodeAsync(options, DOCKET_BIN, ...args);
}

/** Any node command line run without blocking: a server this process holds keeps answering it meanwhile. */
export function nodeAsync(options: { env: NodeJS.ProcessEnv; cwd: string }, ...args: string[]): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code, signal) => done({ code: code ?? -1, stdout, stderr, json: parseJson(stdout), signal }));
  });
}

function parseJson(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** A finished CLI run, as any of the tests' runners returns it (`code`, or spawnSync's `status`). */
export interface Exited {
  code?: number | null;
  status?: number | null;
  stdout: string;
  stderr: string;
}

/** Asserts the exit code first, so a refusal or a crash fails with its own stderr; returns the run. */
export function assertExit<R extends Exited>(r: R, code = 0): R {
  const got = r.code !== undefined ? r.code : r.status;
  assert.equal(
    got,
    code,
    `exit ${got}, expected ${code}; stderr: ${r.stderr.trim() || "(empty)"}; stdout: ${r.stdout.trim().slice(0, 2000) || "(empty)"}`,
  );
  return r;
}

/** The argv of a worker's `docket worker done` with a completed outcome and `summary`; callers add the rest. */
export function doneArgs(summary: string): string[] {
  return ["worker", "done", "--outcome", "completed", "--summary", summary];
}

/** stdout as one JSON document, after asserting the exit code (0 unless a refusal is expected). */
export function jsonOf(r: Exited, code = 0): any {
  return JSON.parse(assertExit(r, code).stdout);
}

/**
 * Tests pin workers uncontained unless they test containment (those set DOCKET_SANDBOX themselves): the
 * default, "auto", would contain them on a machine with bubblewrap and not on one without, and their fixtures live in
 * /tmp, which a contained worker does not see.
 */
export const UNCONTAINED = { DOCKET_SANDBOX: "off" } as const;

/** Spread after UNCONTAINED: the sandbox as the home's config.json (or the default) says; an empty variable is unset. */
export const AS_CONFIGURED = { DOCKET_SANDBOX: "" } as const;

/** pi run hermetically: offline, no version check, no telemetry. */
export const PI_HERMETIC = { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" } as const;

/** A minimal environment for CLI runs: PATH, a UTF-8 locale, workers uncontained (UNCONTAINED) and the given variables. */
export function cliEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...UNCONTAINED, ...vars };
}
