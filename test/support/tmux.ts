// A private tmux server for one test: a random -L socket name, stopped by the test's teardown, which waits for the
// server and every pane's processes to exit. Never the user's server: DOCKET_TMUX_SOCKET points here.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { teardown, type Hooks } from "./teardown.js";

export interface TmuxServer {
  socket: string;
  tmux(...args: string[]): string;
}

export function tmuxServer(t: Hooks): TmuxServer {
  const socket = `docket-test-${randomBytes(6).toString("hex")}`;
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  teardown(t).tmux(socket);
  return { socket, tmux };
}
