// Runs the real `docket` CLI (node bin/docket.js) in a child process with an explicit environment.
// Tests always pass a temp DOCKET_HOME and a private DOCKET_TMUX_SOCKET; the caller's HOME is never used.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const DOCKET_BIN = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "docket.js");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document (undefined when it is not JSON). */
  json: any;
}

export function docket(options: { env: NodeJS.ProcessEnv; cwd: string }, ...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [DOCKET_BIN, ...args], { cwd: options.cwd, env: options.env, encoding: "utf8", timeout: 120_000 });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
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
  assert.equal(got, code, `exit ${got}, expected ${code}; stderr: ${r.stderr.trim() || "(empty)"}; stdout: ${r.stdout.trim().slice(0, 2000) || "(empty)"}`);
  return r;
}

/** stdout as one JSON document, after asserting the exit code (0 unless a refusal is expected). */
export function jsonOf(r: Exited, code = 0): any {
  return JSON.parse(assertExit(r, code).stdout);
}

/** A minimal environment for CLI runs: PATH and the given variables only. */
export function cliEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...vars };
}
