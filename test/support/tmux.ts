// A private tmux server for one test: a random -L socket name, killed when the test ends (STYLE §20).
// Never the user's server: everything that runs tmux gets DOCKET_TMUX_SOCKET pointing here.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";

export interface TmuxServer {
  socket: string;
  tmux(...args: string[]): string;
}

export function tmuxServer(t: { after(fn: () => void): void }): TmuxServer {
  const socket = `docket-test-${randomBytes(6).toString("hex")}`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  t.after(() => {
    try {
      tmux("kill-server");
    } catch {
      // No server was ever started on this socket, or it already exited: nothing to clean.
    }
  });
  return { socket, tmux };
}

/** Polls `check` until it returns a value (not undefined/false) or the deadline passes. */
export async function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
