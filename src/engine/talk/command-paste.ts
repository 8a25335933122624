// A `--agent command` worker has no inbox reader: the human's words (tell, answer, review note) are pasted into its
// pane, and the message counts as delivered once pasted. Best-effort by nature; the ledger message stays the record.

import { AGENT_TRAITS } from "../../domain/agents/traits.js";
import { placeOf } from "../places/place.js";
import { markPasted } from "../../ledger/talk/message-delivery.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";

/** undefined: not a running command worker (its runtime takes the inbox itself); else what became of the paste. */
export function pasteToCommandWorker(
  ctx: EngineContext,
  workerId: string,
  message: string,
  text: string,
): { pasted: true } | { pasted: false; reason: string } | undefined {
  const row = requireWorker(ctx.db, workerId);
  if (AGENT_TRAITS[row.agent].messages !== "pasted-at-once" || !row.paneId || row.exited) return undefined;
  try {
    const tmux = placeOf(ctx, row).tmux();
    if (tmux.paneState(row.paneId, workerId) !== "alive") throw new Error("its pane is not running");
    tmux.sendText(row.paneId, text);
  } catch (error) {
    return { pasted: false, reason: (error as Error).message.split("\n")[0]! };
  }
  ctx.commands.run("message.pasted", { message, generation: row.generation }, (tx) =>
    markPasted(tx, message, workerId, row.generation),
  );
  return { pasted: true };
}
