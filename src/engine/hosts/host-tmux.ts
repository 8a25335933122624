// Which tmux server a worker's window lives on, apart from the rest of a host's work (launch, door, tunnel), so a
// use-case that only pastes into or looks at a pane loads the ssh connection and nothing of a remote launch.

import type { Worker } from "../../domain/workers/worker.js";
import { remoteTmux } from "../../substrate/ssh/host.js";
import type { Tmux } from "../../substrate/tmux.js";
import type { EngineContext } from "../context.js";
import { connectHost } from "./connect.js";

export const hostOf = (row: Pick<Worker, "execution">): string | undefined => row.execution?.host;

/** The tmux server a worker's window lives on: the host's (over ssh) or this machine's. */
export function tmuxFor(ctx: EngineContext, row: Pick<Worker, "execution">): Tmux {
  const host = hostOf(row);
  return host === undefined ? ctx.tmux : remoteTmux(connectHost(ctx, host));
}
