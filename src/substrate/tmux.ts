// The tmux port: one shared session, one window per worker, ids persisted and targeted by every later call.
// Argument arrays only (never a shell string); text goes in with `send-keys -l` or a bracketed paste
// (docs/decisions/workers.md). tmux expands formats (`#(…)` runs a command) in option values such as `new-window -c`
// and `-n`: no user text goes there. Windows start in `/` and the worker's own wrapper changes directory; tmux
// allocates the window index. Running tmux lives in tmux-run.ts, launching a window and sending text in tmux-window.ts;
// the reads are here.

import { createTmuxRun, isTmuxGone, type TmuxExec, type TmuxRun } from "./tmux-run.js";
import { hasSession, launchWindow, sendText, type LaunchWindowInput } from "./tmux-window.js";

export { escapeArgument, TmuxError, type TmuxExec } from "./tmux-run.js";
export type { LaunchWindowInput } from "./tmux-window.js";

export type PaneState = "alive" | "dead" | "missing";

export type PaneMap = Map<string, { state: Exclude<PaneState, "missing">; windowName: string }>;

/** The state of a pane from a listing, counting a pane in a window of another name as missing. */
export function paneFromMap(panes: PaneMap, paneId: string, windowName?: string): PaneState {
  const p = panes.get(paneId);
  if (!p || (windowName !== undefined && p.windowName !== windowName)) return "missing";
  return p.state;
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

/**
 * `env` is the caller's environment; only CLIENT_ENV of it reaches tmux, so a server Docket starts holds none of the
 * caller's secrets or worker identity for later windows to inherit.
 */
export function createTmux(
  socket: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  options: { exec?: TmuxExec } = {},
): Tmux {
  const serverArgs = resolveTmuxServerArgs(socket);
  const run = createTmuxRun(serverArgs, env, options.exec);
  return {
    serverArgs,
    hasSession: (session) => hasSession(run, session),
    launchWindow: (input) => launchWindow(run, input),
    paneState: (paneId, windowName) => paneState(run, paneId, windowName),
    listPanes: () => listPanes(run),
    capture: (paneId, lines) => capture(run, paneId, lines),
    killWindow: (windowId) => ignoreGone(() => run(["kill-window", "-t", windowId])), // already gone is what we wanted
    sendText: (paneId, text) => sendText(run, paneId, text),
    switchClient: (target) => void run(["switch-client", "-t", target]),
    attachArgv: (session, windowId) => [
      ...["tmux", ...serverArgs, "attach-session", "-t", session],
      ...[";", "select-window", "-t", windowId],
    ],
    killServer: () => ignoreGone(() => run(["kill-server"])),
  };
}

function ignoreGone(act: () => unknown): void {
  try {
    act();
  } catch (error) {
    if (!isTmuxGone(error)) throw error;
  }
}

function paneState(run: TmuxRun, paneId: string, windowName?: string): PaneState {
  try {
    const out = run(["display-message", "-p", "-t", paneId, "#{pane_id} #{pane_dead} #{window_name}"]);
    const [id, dead, ...name] = out.replace(/\n$/, "").split(" ");
    if (id !== paneId || (windowName !== undefined && name.join(" ") !== windowName)) return "missing";
    return dead === "1" ? "dead" : "alive";
  } catch (error) {
    if (isTmuxGone(error)) return "missing";
    throw error;
  }
}

function listPanes(run: TmuxRun): PaneMap | undefined {
  try {
    const out = run(["list-panes", "-a", "-F", "#{pane_id} #{pane_dead} #{window_name}"]);
    const map: PaneMap = new Map();
    for (const line of out.split("\n")) {
      const [id, dead, ...name] = line.split(" ");
      if (id?.startsWith("%")) map.set(id, { state: dead === "1" ? "dead" : "alive", windowName: name.join(" ") });
    }
    return map;
  } catch (error) {
    if (isTmuxGone(error)) return new Map();
    return undefined;
  }
}

function capture(run: TmuxRun, paneId: string, lines: number): string {
  const out = run(["capture-pane", "-p", "-J", "-t", paneId, "-S", `-${lines}`]);
  // The screen is padded with blank rows (a dead pane's notice sits on the last one): fold them so the
  // last N lines are the last N lines of text.
  const text = out
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/^\n+|\s+$/g, "");
  return text.split("\n").slice(-lines).join("\n");
}
