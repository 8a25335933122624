// Inbox delivery for agents Docket drives through their terminal (Claude Code, Codex): pasted into the agent's own
// pane once its turn has ended; marked read only when the agent itself reports that input (a hook), never on paste.

import type { PersistedState } from "../../domain/workers/lifecycle.js";
import { AGENT_TRAITS } from "../../domain/agents/traits.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { deliveredUnread, requeueMessages } from "../../ledger/talk/message-delivery.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { appendWorkerEvent } from "../workers/events.js";
import { recordTurn } from "../workers/lifecycle.js";
import { placeOf } from "../places/place.js";
import { claimInbox, formatInboxMessage, inboxHasQueued, markInboxRead } from "./inbox.js";

/** States in which the agent has finished its turn and waits at its own prompt. */
const AT_PROMPT: readonly PersistedState[] = ["idle", "needs_input", "ready", "failed"];

/**
 * Claims this generation's queued messages and pastes them into its pane, when the agent is at its prompt. Typed into
 * a running turn, text could land in a permission dialog instead; so a steer waits for the turn's end here.
 */
export function deliverToAgentPane(ctx: EngineContext, who: WorkerIdentity): string[] {
  const row = getWorker(ctx.db, who.worker);
  if (
    !row ||
    AGENT_TRAITS[row.agent].messages !== "pasted-at-prompt" ||
    row.generation !== who.generation ||
    row.exited ||
    !row.paneId ||
    !AT_PROMPT.includes(row.state)
  )
    return [];
  if (!inboxHasQueued(ctx, who.worker)) return [];
  const tmux = placeOf(ctx, row).tmux();
  if (tmux.paneState(row.paneId, row.id) !== "alive") return [];
  const messages = claimInbox(ctx, who);
  if (messages.length === 0) return [];
  const ids = messages.map((m) => m.id);
  try {
    tmux.sendText(row.paneId, messages.map(formatInboxMessage).join("\n\n"));
  } catch (error) {
    ctx.commands.run("inbox.unclaim", { who, ids }, (tx) => requeueMessages(tx, who.worker, ids));
    throw error;
  }
  recordTurn(ctx, who, "start");
  appendWorkerEvent(ctx, who.worker, {
    type: "message",
    direction: "in",
    ids,
    via: "pane",
    generation: who.generation,
  });
  return ids;
}

const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The agent reported these inputs (its prompt hook, its turn notification): messages among them are now read. */
export function observeAgentInput(ctx: EngineContext, who: WorkerIdentity, inputs: readonly string[]): string[] {
  const seen = inputs.map(squash);
  const read = deliveredUnread(ctx.db, who.worker, who.generation).filter((m) => {
    const text = squash(formatInboxMessage({ kind: m.kind, body: m.body, question: m.question }));
    return seen.some((s) => s.includes(text));
  });
  return markInboxRead(
    ctx,
    who,
    read.map((m) => m.id),
  );
}
