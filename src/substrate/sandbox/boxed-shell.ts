// One shell command run inside bubblewrap for the pi session's bash tool: output streamed, a timeout or an abort kills
// the box, and everything the command started (setsid, nohup, a tmux server) ends with it: the box has its own PID space.

import { spawn } from "node:child_process";

export interface BoxedShellOptions {
  onData(data: Buffer): void;
  signal?: AbortSignal;
  /** Seconds; none when absent or not positive. */
  timeout?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `shell -c command` as `boxArgv… shell -c command` (no shell string is built). Rejects with `aborted` or
 * `timeout:<seconds>`, the messages pi's bash tool turns into its own.
 */
export function runBoxedShell(
  boxArgv: readonly string[],
  shell: string,
  command: string,
  cwd: string,
  options: BoxedShellOptions,
): Promise<{ exitCode: number | null }> {
  const [program, ...args] = boxArgv;
  if (program === undefined) return Promise.reject(new Error("no sandbox program to run the command in"));
  return new Promise((resolvePromise, reject) => {
    const child = spawn(program, [...args, shell, "-c", command], {
      cwd,
      detached: true, // its own process group and session: no terminal to type into, killed as one group
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let ended: "aborted" | "timeout" | undefined;
    const kill = (why: "aborted" | "timeout") => {
      ended ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL"); // bubblewrap dies, and with it its PID space
      } catch {
        // already gone
      }
    };
    const timer =
      options.timeout !== undefined && options.timeout > 0
        ? setTimeout(() => kill("timeout"), options.timeout * 1000)
        : undefined;
    const onAbort = () => kill("aborted");
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", options.onData);
    child.stderr.on("data", options.onData);
    const settle = (error: Error | undefined, code: number | null) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (ended === "aborted") reject(new Error("aborted"));
      else if (ended === "timeout") reject(new Error(`timeout:${options.timeout}`));
      else if (error) reject(error);
      else resolvePromise({ exitCode: code });
    };
    child.once("error", (error) => settle(error, null));
    child.once("close", (code) => settle(undefined, code));
  });
}
