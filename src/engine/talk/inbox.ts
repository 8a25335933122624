// The worker side of the inbox: claim queued messages (→ delivered) and confirm what the process was seen reading (→ read).
// Both are fenced by generation, so a replaced process can neither take nor acknowledge the new one's words.

import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { claimQueuedMessages, hasQueuedMessages, markMessagesRead } from "../../ledger/talk/message-delivery.js";
import type { Message } from "../../ledger/talk/messages.js";
import { runFenced } from "../protocol/fenced.js";
import { dataVersion } from "../../ledger/core/open.js";
import type { EngineContext } from "../context.js";

export interface InboxMessage {
  id: string;
  kind: Message["kind"];
  body: string;
  question: string | null;
  deliverAs: Message["deliverAs"];
  from: Message["fromActor"];
}

const LABELS: Record<Message["kind"], string> = {
  work: "work for you",
  reply_review: "the human changed an item you hold",
  tell: "from the human",
  answer: "answer",
  review_note: "review note",
  broadcast: "broadcast from the human to the workers it concerns",
};

/** The text a worker sees: a one-line frame naming the sender and what it answers, then the body verbatim. */
export function formatInboxMessage(
  m: Pick<InboxMessage, "kind" | "body" | "question"> & { from?: InboxMessage["from"] },
): string {
  const re = m.question ? ` · re: question ${m.question}` : "";
  const label =
    m.kind === "answer" && m.from === "parent-agent"
      ? "answer from the parent agent, not reviewed by the human"
      : LABELS[m.kind];
  return `[docket · ${label}${re}]\n${m.body}`;
}

/** SQLite's data_version: changes whenever another connection commits. Cheap to poll. */
export function ledgerVersion(ctx: EngineContext): number {
  return dataVersion(ctx.db);
}

export function inboxHasQueued(ctx: EngineContext, worker: string): boolean {
  return hasQueuedMessages(ctx.db, worker);
}

/** Claims this generation's queued messages; a `key` makes a retried claim (its reply lost) return the same messages. */
export function claimInbox(ctx: EngineContext, who: WorkerIdentity, key?: string): InboxMessage[] {
  const claim = {
    command: "inbox.claim",
    who,
    request: { who },
    key: key === undefined ? undefined : `inbox.claim/${who.worker}/${key}`,
  };
  return runFenced(ctx, claim, (tx) => {
    return claimQueuedMessages(tx, who.worker, who.generation).map((m) => ({
      id: m.id,
      kind: m.kind,
      body: m.body,
      question: m.question,
      deliverAs: m.deliverAs,
      from: m.fromActor,
    }));
  });
}

export function markInboxRead(ctx: EngineContext, who: WorkerIdentity, ids: readonly string[]): string[] {
  if (ids.length === 0) return [];
  return runFenced(ctx, { command: "inbox.read", who, request: { who, ids } }, (tx) => {
    return markMessagesRead(tx, who.worker, who.generation, ids);
  });
}
