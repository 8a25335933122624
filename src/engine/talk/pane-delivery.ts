// Delivery to a `--agent command` worker, which has no inbox reader: the message is pasted into its pane and is
// delivered once tmux took the paste (observed, never assumed); a paste that failed leaves it queued (issue 16 §7).

import { markPasted } from "../../ledger/talk/message-delivery.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { workerTmux } from "../workers/launch.js";

/** `delivered`: pasted and recorded; `failed`: the pane is gone or refused it (the message stays queued). */
export type PaneDelivery = { delivery: "delivered" } | { delivery: "failed"; reason: string };

/**
 * Pastes `text` (message `message`'s body) into a running command worker's pane and marks that message delivered.
 * Undefined when the worker is not a running command worker: its inbox reader (or a respawn) delivers it instead.
 */
export function pasteIntoCommandPane(ctx: EngineContext, worker: string, message: string, text: string): PaneDelivery | undefined {
  const row = getWorker(ctx.db, worker);
  if (!row || row.agent !== "command" || !row.pane_id || row.exited) return undefined;
  try {
    const tmux = workerTmux(ctx);
    if (tmux.paneState(row.pane_id, row.id) !== "alive") return { delivery: "failed", reason: "its pane is not running" };
    tmux.sendText(row.pane_id, text);
  } catch (error) {
    return { delivery: "failed", reason: (error as Error).message.split("\n")[0] ?? "tmux refused the paste" };
  }
  ctx.commands.run("message.pasted", { worker, message, generation: row.generation }, (tx) => markPasted(tx, worker, row.generation, message));
  return { delivery: "delivered" };
}
