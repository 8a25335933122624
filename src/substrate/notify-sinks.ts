// The outside ends of notifications: the freedesktop notification service (through `notify-send`) and the user's own
// command (`notify.command`, one JSON line per event on stdin). Fixed argv arrays only, never a shell (DESIGN §8a).

import { spawn } from "node:child_process";
import { basename, dirname } from "node:path";
import { onPath } from "./agents/locate.js";

export interface SinkOutcome {
  ok: boolean;
  /** What happened, in a few words (`notify-send exited 0`, `spawn ENOENT`, `timed out after 5s`). */
  detail: string;
}

const TIMEOUT_MS = 5_000;

/** Runs argv with `input` on stdin, waits for it to exit (killed after a few seconds); never throws. */
export function runSinkArgv(argv: readonly string[], options: { env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number }): Promise<SinkOutcome> {
  const [file, ...args] = argv;
  if (!file) return Promise.resolve({ ok: false, detail: "no command" });
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  return new Promise((done) => {
    let stderr = "";
    let settled = false;
    const finish = (o: SinkOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(o);
    };
    const child = spawn(file, args, { env: options.env, stdio: ["pipe", "ignore", "pipe"] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ ok: false, detail: `${file} timed out after ${timeoutMs / 1000}s` });
    }, timeoutMs);
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr = (stderr + s).slice(-300)));
    child.on("error", (error) => finish({ ok: false, detail: `${file}: ${error.message}` }));
    child.on("exit", (code, signal) => {
      const why = stderr.trim().split("\n").pop();
      finish(code === 0 ? { ok: true, detail: `${file} exited 0` } : { ok: false, detail: `${file} ${signal ? `killed by ${signal}` : `exited ${code}`}${why ? `: ${why}` : ""}` });
    });
    // A receiver that does not read its stdin must not fail the send: EPIPE is its choice.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** One desktop notification through the session bus's org.freedesktop.Notifications (libnotify's `notify-send`). */
export function sendDesktopNotification(message: { summary: string; body: string }, env: NodeJS.ProcessEnv): Promise<SinkOutcome> {
  // `--` ends the options: a summary starting with "-" is text, never a flag.
  return runSinkArgv(["notify-send", "--app-name=Docket", "--icon=dialog-information", "--", message.summary, message.body], { env });
}

/** Where a sink's program is: a path as given when it has a slash, else the first on PATH; undefined when none runs. */
export function sinkProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes("/")) return onPath(basename(name), dirname(name));
  return onPath(name, env.PATH);
}
