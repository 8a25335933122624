// The outside ends of notifications: `notify-send` (with a click action for long-lived senders), the user's command
// (`notify.command`, one JSON line per event on stdin) and the opener a click runs. Fixed argv only, never a shell
// (docs/decisions/authority.md).

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
export function runSinkArgv(
  argv: readonly string[],
  options: { env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<SinkOutcome> {
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
      finish(
        code === 0
          ? { ok: true, detail: `${file} exited 0` }
          : {
              ok: false,
              detail: `${file} ${signal ? `killed by ${signal}` : `exited ${code}`}${why ? `: ${why}` : ""}`,
            },
      );
    });
    // A receiver that does not read its stdin must not fail the send: EPIPE is its choice.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** How a long-lived sender listens for a click on its desktop notification. */
export interface DesktopClick {
  /** Called once when the human clicks the notification (its default action). */
  onOpen(): void;
  /** How long the notification listens for a click; then its notify-send is ended and a click does nothing. */
  holdMs: number;
  /** Registers the listening process with its owner, who may end it early; returns the release for its own exit. */
  hold(end: () => void): () => void;
}

/** A click-enabled notify-send that has not failed by now is showing the notification (it waits for a click). */
const SHOWN_AFTER_MS = 1_500;

/**
 * One desktop notification through the session bus's org.freedesktop.Notifications (libnotify's `notify-send`). With
 * `click`, it carries a default action: notify-send waits, prints `default` when it is clicked, and `onOpen` runs.
 */
export function sendDesktopNotification(
  message: { summary: string; body: string },
  env: NodeJS.ProcessEnv,
  click?: DesktopClick,
): Promise<SinkOutcome> {
  // `--` ends the options: a summary starting with "-" is text, never a flag.
  const base = ["notify-send", "--app-name=Docket", "--icon=dialog-information"];
  if (!click) return runSinkArgv([...base, "--", message.summary, message.body], { env });
  return new Promise((done) => {
    let settled = false;
    const finish = (o: SinkOutcome) => {
      if (!settled) done(o);
      settled = true;
    };
    const child = spawn(
      base[0]!,
      [...base.slice(1), "--action=default=Open in Docket", "--", message.summary, message.body],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    const end = () => child.kill("SIGTERM");
    const release = click.hold(end);
    const shown = setTimeout(
      () => finish({ ok: true, detail: "notify-send shows it and waits for a click" }),
      SHOWN_AFTER_MS,
    );
    const held = setTimeout(end, click.holdMs);
    let stderr = "";
    let out = "";
    child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr = (stderr + t).slice(-300)));
    child.stdout.setEncoding("utf8").on("data", (t: string) => {
      out += t;
      // notify-send prints the name of the action it was told of, one per line.
      if (out.split("\n").includes("default")) {
        out = "";
        click.onOpen();
      }
    });
    child.on("error", (error) => finish({ ok: false, detail: `notify-send: ${error.message}` }));
    child.on("exit", (code, signal) => {
      clearTimeout(shown);
      clearTimeout(held);
      release();
      const why = stderr.trim().split("\n").pop();
      finish(
        code === 0
          ? { ok: true, detail: "notify-send exited 0" }
          : {
              ok: false,
              detail: `notify-send ${signal ? `killed by ${signal}` : `exited ${code}`}${why ? `: ${why}` : ""}`,
            },
      );
    });
  });
}

/**
 * Starts argv on its own (a browser opener may outlive the sender) and does not wait for it; `onError` hears a start
 * that failed (no such program).
 */
export function startDetached(argv: readonly string[], env: NodeJS.ProcessEnv, onError: (error: Error) => void): void {
  const [file, ...args] = argv;
  if (!file) return onError(new Error("no command"));
  const child = spawn(file, args, { env, stdio: "ignore", detached: true });
  child.on("error", onError);
  child.unref();
}

/** Where a sink's program is: a path as given when it has a slash, else the first on PATH; undefined when none runs. */
export function sinkProgram(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name.includes("/")) return onPath(basename(name), dirname(name));
  return onPath(name, env.PATH);
}
