// The pi worker's inbox, pushed: the door's long-poll answers when a message is queued, the worker claims it and hands
// it to pi (a steer, a follow-up, or a broadcast for the next turn). Delivery is observed, never assumed: claimed →
// delivered, and read only when pi is seen starting that user message.

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { freshCallId } from "../../shared/door-client.js";
import type { WorkerCalls } from "./worker-calls.js";

/** How long one inbox long-poll may wait at the door before it is asked again. */
const INBOX_WAIT_MS = 20_000;

/** The custom message type a broadcast arrives as: context for the worker's next turn, never a turn of its own. */
export const BROADCAST_MESSAGE_TYPE = "docket-broadcast";

interface Pending {
  text: string;
  ids: string[];
}

interface Claimed {
  id: string;
  deliverAs: "steer" | "followUp" | "nextTurn";
  text: string;
}

export interface InboxDelivery {
  /** Opens delivery (the first turn started, or the grace after session start passed) and delivers what waits. */
  open(): void;
  /** Long-polls the door until the session ends or the process is fenced out. */
  loop(ended: () => boolean): Promise<void>;
  /** A message pi starts or ends: a delivered one it contains is now read. */
  observe(message: unknown): void;
}

export function inboxDelivery(
  pi: ExtensionAPI,
  calls: WorkerCalls,
  session: () => ExtensionContext | undefined,
): InboxDelivery {
  const pending: Pending[] = [];
  let open = false;
  let delivering = false;

  async function deliver(): Promise<void> {
    const s = session();
    // Docket launches workers interactive; a print/json run (tests, scripts) has no one to steer, so it takes nothing.
    if (!s?.hasUI || !open || calls.fencedOut() || delivering) return;
    delivering = true;
    try {
      const claimed =
        (await calls.guarded<{ messages: Claimed[] }>("inbox", "inbox-claim", { key: freshCallId("claim") }))
          ?.messages ?? [];
      if (claimed.length === 0) return;
      const messages = claimed.filter((m) => m.deliverAs !== "nextTurn");
      const quiet = claimed.filter((m) => m.deliverAs === "nextTurn");
      if (messages.length > 0) {
        const text = messages.map((m) => m.text).join("\n\n");
        const ids = messages.map((m) => m.id);
        pending.push({ text, ids });
        const deliverAs = messages.every((m) => m.deliverAs === "followUp") ? "followUp" : "steer";
        if (s.isIdle()) pi.sendUserMessage(text);
        else pi.sendUserMessage(text, { deliverAs });
        calls.event({ type: "message", direction: "in", ids, deliverAs });
      }
      if (quiet.length > 0) {
        // A broadcast never starts or interrupts a turn: the model reads it at its next call (steer, once the running
        // tools finish) or, when idle, with the next prompt that wakes it (nextTurn).
        const text = quiet.map((m) => m.text).join("\n\n");
        const ids = quiet.map((m) => m.id);
        pending.push({ text, ids });
        const deliverAs = s.isIdle() ? "nextTurn" : "steer";
        pi.sendMessage(
          { customType: BROADCAST_MESSAGE_TYPE, content: text, display: true, details: { ids } },
          { deliverAs },
        );
        calls.event({ type: "message", direction: "in", ids, deliverAs });
      }
    } finally {
      delivering = false;
    }
  }

  return {
    open() {
      if (open) return;
      open = true;
      void deliver(); // what was queued while delivery was closed
    },
    async loop(ended) {
      let after = -1;
      while (!ended() && !calls.fencedOut()) {
        const seen = await calls.guarded<{ version: number; queued: boolean }>(
          "inbox",
          "inbox-wait",
          { after, timeoutMs: INBOX_WAIT_MS },
          { waitMs: INBOX_WAIT_MS },
        );
        if (!seen) {
          await new Promise((r) => setTimeout(r, 1_000).unref());
          continue;
        }
        after = seen.version;
        if (seen.queued) await deliver();
      }
    },
    observe(message) {
      const text = userText(message);
      if (text === undefined) return;
      const hit = pending.findIndex((p) => text.includes(p.text));
      if (hit === -1) return;
      const [seen] = pending.splice(hit, 1);
      void calls.guarded("inbox-read", "inbox-read", { ids: seen!.ids });
    },
  };
}

function userText(message: unknown): string | undefined {
  const m = message as { role?: string; content?: unknown; customType?: string };
  if (m?.role !== "user" && !(m?.role === "custom" && m.customType === BROADCAST_MESSAGE_TYPE)) return undefined;
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content)) return undefined;
  return (m.content as { type?: string; text?: string }[])
    .filter((b) => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}
