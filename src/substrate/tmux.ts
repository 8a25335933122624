// The tmux port: one shared session, one window per worker, ids persisted and targeted by every later call.
// Argument arrays only (never a shell string); text goes in with `send-keys -l` or a bracketed paste (DESIGN §4).

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";

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
  name: string;
  cwd: string;
  env: Record<string, string>;
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

export function createTmux(socket: string | undefined): Tmux {
  const serverArgs = resolveTmuxServerArgs(socket);

  function run(args: string[], input?: string): string {
    try {
      return execFileSync("tmux", [...serverArgs, ...args.map(escapeArgument)], {
        encoding: "utf8",
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

  function launchWindow(input: LaunchWindowInput): { windowId: string; paneId: string } {
    const envArgs = Object.entries(input.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    const format = ["-P", "-F", "#{window_id} #{pane_id}"];
    const windowArgs = ["-n", input.name, "-c", input.cwd, ...envArgs, ...format, "--", ...input.argv];
    // remain-on-exit is set in the same tmux command list as the window is made, so even a command that exits at
    // once leaves its dead pane behind (and its session alive).
    const newWindow = (): string => {
      for (let attempt = 0; ; attempt++) {
        const index = nextWindowIndex(input.session);
        const target = `=${input.session}:${index}`;
        try {
          return run(["new-window", "-d", "-t", target, ...windowArgs, SEPARATOR_TOKEN, "set-option", "-w", "-t", target, "remain-on-exit", "on"]);
        } catch (error) {
          // Another spawn took that index between our look and our call: look again.
          if (attempt < 5 && error instanceof TmuxError && /index .* in use|in use/i.test(error.stderr)) continue;
          throw error;
        }
      }
    };
    let out: string;
    if (hasSession(input.session)) out = newWindow();
    else {
      try {
        out = run(["new-session", "-d", "-s", input.session, "-x", "200", "-y", "50", ...windowArgs, SEPARATOR_TOKEN, "set-option", "-w", "remain-on-exit", "on"]);
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

  function nextWindowIndex(session: string): number {
    const out = run(["list-windows", "-t", `=${session}`, "-F", "#{window_index}"]);
    return Math.max(-1, ...out.split("\n").filter(Boolean).map(Number)) + 1;
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
    if (!text.includes("\n")) {
      run(["send-keys", "-t", paneId, "-l", text]);
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
