// The tmux port: one shared session, one window per worker, ids persisted and targeted by every later call.
// Argument arrays only (never a shell string); text goes in with `send-keys -l` or a bracketed paste (DESIGN §4).
// tmux expands formats (`#(…)` runs a command) in option values such as `new-window -c` and `-n`: no user text goes
// there. Windows start in `/` and the worker's own wrapper changes directory; tmux allocates the window index.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { findControlCharacter } from "../domain/work/message-text.js";

export type PaneState = "alive" | "dead" | "missing";

export type PaneMap = Map<string, { state: Exclude<PaneState, "missing">; windowName: string }>;

/** The state of a pane from a listing, counting a pane in a window of another name as missing. */
export function paneFromMap(panes: PaneMap, paneId: string, windowName?: string): PaneState {
  const p = panes.get(paneId);
  if (!p || (windowName !== undefined && p.windowName !== windowName)) return "missing";
  return p.state;
}

export interface LaunchWindowInput {
  session: string;
  /** The window's name: a Docket id (w<N>); anything else is refused, since tmux expands formats in names. */
  name: string;
  /** Run as given (never through a shell of tmux's); it starts in `/` with the tmux server's environment. */
  argv: string[];
}

export interface Tmux {
  /** The flags that select the server (`-L name`, `-S path`, or none for the default server). */
  readonly serverArgs: readonly string[];
  hasSession(session: string): boolean;
  launchWindow(input: LaunchWindowInput): { windowId: string; paneId: string };
  /** A pane whose window carries another name is someone else's (ids restart with a new server): missing. */
  paneState(paneId: string, windowName?: string): PaneState;
  /** Every pane of the server with its state and window name, in one call. Undefined when tmux cannot be asked. */
  listPanes(): PaneMap | undefined;
  capture(paneId: string, lines: number): string;
  killWindow(windowId: string): void;
  sendText(paneId: string, text: string): void;
  switchClient(target: string): void;
  /** The argv a human runs to look at a window from outside tmux. */
  attachArgv(session: string, windowId: string): string[];
  /** Stops this server (only ever called for a private one, e.g. the demo's); a server already gone is fine. */
  killServer(): void;
}

/** The only variables the tmux client gets: a server it starts keeps them as its global environment for every window. */
const CLIENT_ENV = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TMUX", "TMUX_TMPDIR", "TZ"];

/** Names tmux may see as a window or session name: plain words only, never a format. */
const INERT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `DOCKET_TMUX_SOCKET`: contains `/` → `-S path`, else `-L name`; unset → the default server. */
export function resolveTmuxServerArgs(socket: string | undefined): string[] {
  if (!socket) return [];
  return socket.includes("/") ? ["-S", socket] : ["-L", socket];
}

export class TmuxError extends Error {
  constructor(message: string, readonly stderr: string) {
    super(message);
    this.name = "TmuxError";
  }
}

/** Separates two tmux commands in one invocation: the only argument that reaches tmux as a bare `;`. */
const SEPARATOR_TOKEN = "\u0000docket-tmux-separator\u0000";

/**
 * tmux reads an argument ending in `;` as the end of a command and drops the `;`. Every argument we pass
 * (argv words, env values, literal text) keeps its `;` by escaping it; only our own separators stay bare.
 */
export function escapeArgument(arg: string): string {
  if (arg === SEPARATOR_TOKEN) return ";";
  return arg.endsWith(";") ? `${arg.slice(0, -1)}\\;` : arg;
}

/** Runs tmux's argv elsewhere (a host over ssh): stdout on success, a TmuxError carrying tmux's stderr otherwise. */
export type TmuxExec = (args: string[], input?: string) => string;

/**
 * `env` is the caller's environment; only CLIENT_ENV of it reaches tmux, so a server Docket starts holds none of the
 * caller's secrets or worker identity for later windows to inherit.
 */
export function createTmux(socket: string | undefined, env: NodeJS.ProcessEnv = process.env, options: { exec?: TmuxExec } = {}): Tmux {
  const serverArgs = resolveTmuxServerArgs(socket);
  const clientEnv: NodeJS.ProcessEnv = {};
  for (const name of CLIENT_ENV) if (env[name] !== undefined) clientEnv[name] = env[name];

  function run(args: string[], input?: string): string {
    if (options.exec) return options.exec([...serverArgs, ...args.map(escapeArgument)], input);
    try {
      return execFileSync("tmux", [...serverArgs, ...args.map(escapeArgument)], {
        encoding: "utf8",
        env: clientEnv,
        input,
        stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      const e = error as { stderr?: string; message: string; code?: string };
      if (e.code === "ENOENT") throw new TmuxError("tmux is not installed (no `tmux` on PATH)", "");
      const stderr = String(e.stderr ?? "").trim();
      throw new TmuxError(stderr || e.message, stderr);
    }
  }

  const isGone = (e: unknown) =>
    e instanceof TmuxError && /can't find|no server running|no such|not found|error connecting|server exited/i.test(e.stderr || e.message);

  function hasSession(session: string): boolean {
    try {
      run(["has-session", "-t", `=${session}`]);
      return true;
    } catch (error) {
      if (error instanceof TmuxError && error.stderr !== "") return false;
      throw error;
    }
  }

  function serverRunning(): boolean {
    try {
      run(["list-sessions", "-F", "#{session_id}"]);
      return true;
    } catch (error) {
      if (isGone(error)) return false;
      throw error;
    }
  }

  function launchWindow(input: LaunchWindowInput): { windowId: string; paneId: string } {
    if (!INERT_NAME.test(input.session)) throw new TmuxError(`refusing tmux session name ${JSON.stringify(input.session)}: letters, digits, - and _ only`, "");
    if (!INERT_NAME.test(input.name)) throw new TmuxError(`refusing tmux window name ${JSON.stringify(input.name)}: letters, digits, - and _ only`, "");
    // The window is born under a name no other window has, so the commands that follow in the same tmux command
    // list find it before its process can exit: remain-on-exit keeps even an instant exit's dead pane, then the
    // window takes its real name. tmux picks the index itself, so concurrent launches never collide on one.
    const temp = `docket-new-${randomBytes(8).toString("hex")}`;
    const made = `=${input.session}:=${temp}`;
    const windowArgs = ["-n", temp, "-c", "/", "-P", "-F", "#{window_id} #{pane_id}", "--", ...input.argv];
    const settle = [SEPARATOR_TOKEN, "set-option", "-w", "-t", made, "remain-on-exit", "on", SEPARATOR_TOKEN, "rename-window", "-t", made, input.name];
    const newWindow = () => run(["new-window", "-d", "-t", `=${input.session}:`, ...windowArgs, ...settle]);
    let out: string;
    if (hasSession(input.session)) out = newWindow();
    else {
      // A server this call starts is Docket's own: it gets the extended keys pi asks for (pi warns in every pane
      // otherwise). A server that was already running keeps its owner's settings.
      const keys = serverRunning() ? [] : [SEPARATOR_TOKEN, "set-option", "-s", "extended-keys", "on"];
      try {
        out = run(["new-session", "-d", "-s", input.session, "-x", "200", "-y", "50", ...windowArgs, ...settle, ...keys]);
      } catch (error) {
        // Another spawn created the session between our check and our call: join it instead.
        if (error instanceof TmuxError && /duplicate session/i.test(error.stderr)) out = newWindow();
        else throw error;
      }
    }
    const [windowId, paneId] = out.trim().split(/\s+/);
    if (!windowId?.startsWith("@") || !paneId?.startsWith("%")) throw new TmuxError(`tmux returned unexpected ids: ${out.trim()}`, "");
    return { windowId, paneId };
  }

  function paneState(paneId: string, windowName?: string): PaneState {
    try {
      const out = run(["display-message", "-p", "-t", paneId, "#{pane_id} #{pane_dead} #{window_name}"]).replace(/\n$/, "");
      const [id, dead, ...name] = out.split(" ");
      if (id !== paneId || (windowName !== undefined && name.join(" ") !== windowName)) return "missing";
      return dead === "1" ? "dead" : "alive";
    } catch (error) {
      if (isGone(error)) return "missing";
      throw error;
    }
  }

  function listPanes(): PaneMap | undefined {
    try {
      const out = run(["list-panes", "-a", "-F", "#{pane_id} #{pane_dead} #{window_name}"]);
      const map: PaneMap = new Map();
      for (const line of out.split("\n")) {
        const [id, dead, ...name] = line.split(" ");
        if (id?.startsWith("%")) map.set(id, { state: dead === "1" ? "dead" : "alive", windowName: name.join(" ") });
      }
      return map;
    } catch (error) {
      if (isGone(error)) return new Map();
      return undefined;
    }
  }

  function capture(paneId: string, lines: number): string {
    const out = run(["capture-pane", "-p", "-J", "-t", paneId, "-S", `-${lines}`]);
    // The screen is padded with blank rows (a dead pane's notice sits on the last one): fold them so the
    // last N lines are the last N lines of text.
    const text = out.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").replace(/^\n+|\s+$/g, "");
    return text.split("\n").slice(-lines).join("\n");
  }

  function killWindow(windowId: string): void {
    try {
      run(["kill-window", "-t", windowId]);
    } catch (error) {
      if (!isGone(error)) throw error; // already gone is the state we wanted
    }
  }

  function sendText(paneId: string, text: string): void {
    // A control byte in a pane is a keystroke (Ctrl-C kills the worker): the engine refuses such text, and so does this port.
    const control = findControlCharacter(text);
    if (control) throw new TmuxError(`refusing to send control character ${control.codePoint} into a pane`, "");
    if (!text.includes("\n")) {
      // `--`: text that starts with a dash is text, not a flag of send-keys.
      run(["send-keys", "-t", paneId, "-l", "--", text]);
    } else {
      const buffer = `docket-${randomBytes(6).toString("hex")}`;
      run(["load-buffer", "-b", buffer, "-"], text);
      run(["paste-buffer", "-p", "-d", "-b", buffer, "-t", paneId]);
    }
    run(["send-keys", "-t", paneId, "Enter"]);
  }

  function switchClient(target: string): void {
    run(["switch-client", "-t", target]);
  }

  function attachArgv(session: string, windowId: string): string[] {
    return ["tmux", ...serverArgs, "attach-session", "-t", session, ";", "select-window", "-t", windowId];
  }

  function killServer(): void {
    try {
      run(["kill-server"]);
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  }

  return { serverArgs, hasSession, launchWindow, paneState, listPanes, capture, killWindow, sendText, switchClient, attachArgv, killServer };
}
