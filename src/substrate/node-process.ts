// Docket's own child processes (the review page's server runs as `node <entry> …`) and the desktop's URL opener:
// started from fixed argv arrays, never through a shell, so no text is ever interpreted (docs/decisions/authority.md).

import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";

export interface ChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Runs `node …argv` on this terminal until it stops; Ctrl-C reaches both processes and this one waits for the child. */
export function runNodeInForeground(argv: readonly string[], options: ChildOptions): Promise<number> {
  const child = spawn(process.execPath, argv, { cwd: options.cwd, env: options.env, stdio: "inherit" });
  const ignore = (): void => {}; // the child got the same terminal signal and shuts itself down; wait for it
  process.on("SIGINT", ignore);
  const forward = (): void => void child.kill("SIGTERM");
  process.on("SIGTERM", forward);
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", ignore);
      process.off("SIGTERM", forward);
      done(code ?? (signal ? 1 : 0));
    });
  });
}

export interface DetachedChild {
  pid: number | undefined;
  /** Its exit code once it exited (1 when a signal ended it), else null. */
  exitCode(): number | null;
  stop(): void;
}

/** Starts `node …argv` detached from this process, its output appended to `logPath` (0600). */
export function startNodeDetached(argv: readonly string[], options: ChildOptions & { logPath: string }): DetachedChild {
  const log = openSync(options.logPath, "a", 0o600);
  let child;
  try {
    child = spawn(process.execPath, argv, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", log, log],
    });
  } finally {
    closeSync(log);
  }
  child.unref();
  let exited: number | null = null;
  child.on("exit", (code) => (exited = code ?? 1));
  return { pid: child.pid, exitCode: () => exited, stop: () => void child.kill("SIGTERM") };
}

/** Asks a process to stop (SIGTERM). */
export function stopProcess(pid: number): void {
  process.kill(pid, "SIGTERM");
}

/** Asks the desktop to open `url` (xdg-open / open); best-effort, resolving to the reason when it cannot. */
export function openUrl(url: string): Promise<string | undefined> {
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? undefined : "xdg-open";
  if (!opener) return Promise.resolve(`no browser opener on ${process.platform}`);
  return new Promise((done) => {
    const child = spawn(opener, [url], { stdio: "ignore", detached: true });
    child.on("error", (error) => done(`${opener}: ${error.message}`));
    child.on("spawn", () => {
      child.unref();
      done(undefined);
    });
  });
}
