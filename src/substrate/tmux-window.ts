// The tmux port's writes into a server: a worker's window launched under a temporary name, and text sent to a pane.
// No user text reaches a tmux option value (tmux expands formats there): names are plain words, text goes in literally.

import { randomBytes } from "node:crypto";
import { findControlCharacter } from "../domain/work/message-text.js";
import { isTmuxGone, SEPARATOR_TOKEN, TmuxError, type TmuxRun } from "./tmux-run.js";

export interface LaunchWindowInput {
  session: string;
  /** The window's name: a Docket id (w<N>); anything else is refused, since tmux expands formats in names. */
  name: string;
  /** Run as given (never through a shell of tmux's); it starts in `/` with the tmux server's environment. */
  argv: string[];
}

/** Names tmux may see as a window or session name: plain words only, never a format. */
const INERT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function hasSession(run: TmuxRun, session: string): boolean {
  try {
    run(["has-session", "-t", `=${session}`]);
    return true;
  } catch (error) {
    if (error instanceof TmuxError && error.stderr !== "") return false;
    throw error;
  }
}

function serverRunning(run: TmuxRun): boolean {
  try {
    run(["list-sessions", "-F", "#{session_id}"]);
    return true;
  } catch (error) {
    if (isTmuxGone(error)) return false;
    throw error;
  }
}

function refuseName(what: string, name: string): void {
  if (!INERT_NAME.test(name)) {
    throw new TmuxError(`refusing tmux ${what} name ${JSON.stringify(name)}: letters, digits, - and _ only`, "");
  }
}

export function launchWindow(run: TmuxRun, input: LaunchWindowInput): { windowId: string; paneId: string } {
  refuseName("session", input.session);
  refuseName("window", input.name);
  // The window is born under a name no other window has, so the commands that follow in the same tmux command
  // list find it before its process can exit: remain-on-exit keeps even an instant exit's dead pane, then the
  // window takes its real name. tmux picks the index itself, so concurrent launches never collide on one.
  const temp = `docket-new-${randomBytes(8).toString("hex")}`;
  const made = `=${input.session}:=${temp}`;
  const windowArgs = ["-n", temp, "-c", "/", "-P", "-F", "#{window_id} #{pane_id}", "--", ...input.argv];
  const settle = [
    ...[SEPARATOR_TOKEN, "set-option", "-w", "-t", made, "remain-on-exit", "on"],
    ...[SEPARATOR_TOKEN, "rename-window", "-t", made, input.name],
  ];
  const newWindow = () => run(["new-window", "-d", "-t", `=${input.session}:`, ...windowArgs, ...settle]);
  let out: string;
  if (hasSession(run, input.session)) out = newWindow();
  else {
    // A server this call starts is Docket's own: it gets the extended keys pi asks for (pi warns in every pane
    // otherwise). A server that was already running keeps its owner's settings.
    const keys = serverRunning(run) ? [] : [SEPARATOR_TOKEN, "set-option", "-s", "extended-keys", "on"];
    try {
      out = run(["new-session", "-d", "-s", input.session, "-x", "200", "-y", "50", ...windowArgs, ...settle, ...keys]);
    } catch (error) {
      // Another spawn created the session between our check and our call: join it instead.
      if (error instanceof TmuxError && /duplicate session/i.test(error.stderr)) out = newWindow();
      else throw error;
    }
  }
  const [windowId, paneId] = out.trim().split(/\s+/);
  if (!windowId?.startsWith("@") || !paneId?.startsWith("%")) {
    throw new TmuxError(`tmux returned unexpected ids: ${out.trim()}`, "");
  }
  return { windowId, paneId };
}

export function sendText(run: TmuxRun, paneId: string, text: string): void {
  // A control byte in a pane is a keystroke (Ctrl-C kills the worker): the engine refuses such text, and so does
  // this port.
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
