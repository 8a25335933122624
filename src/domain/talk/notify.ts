// What reaches the human outside the terminal: which notification kinds are events, and how a batch becomes one message.
// Pure: the dispatcher (engine/talk/notify-dispatch.ts) claims rows in the ledger and hands them to the sinks.

/** The notification kinds sent through the sinks; every other kind (outcome, note, …) stays inside Docket's own views. */
export const NOTIFY_EVENTS = ["question", "ready", "failed", "blocked", "escalated", "budget"] as const;
export type NotifyEventKind = (typeof NOTIFY_EVENTS)[number];

export const isNotifyEvent = (kind: string): kind is NotifyEventKind =>
  (NOTIFY_EVENTS as readonly string[]).includes(kind);

/** The sinks, each switched on or off in the user's config (`notify.<sink>`). */
export const NOTIFY_SINKS = ["desktop", "web", "command", "terminal"] as const;
export type NotifySink = (typeof NOTIFY_SINKS)[number];

/** One event as every sink receives it (the `notify.command` JSON line has exactly these keys). */
export interface NotifyEvent {
  event: NotifyEventKind;
  /** The notification row's id (n<N>): what makes a line unique to a receiver. */
  id: string;
  worker: string | null;
  /** The deliverable ref or item the event is about, when there is one. */
  ref: string | null;
  title: string;
  text: string;
  /** The review page's address for this event, when a page runs for the project. */
  url?: string;
  at: string;
}

export interface NotifyRow {
  id: string;
  kind: string;
  worker: string | null;
  item: string | null;
  body: string;
  createdAt: string;
  deliverableRef: string | null;
}

const TITLES: Record<NotifyEventKind, string> = {
  question: "asks you a question",
  ready: "has a version ready for judgment",
  failed: "failed",
  blocked: "is blocked",
  escalated: "escalated a consult to you",
  budget: "reached a budget threshold",
};

/** A message line may not carry control characters (a terminal or a notification daemon would act on them). */
export const plainText = (text: string, max: number): string => {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** `urlFor` gives the review page's address for the event's worker when a page runs. */
export function resolveNotifyEvent(
  row: NotifyRow & { kind: NotifyEventKind },
  urlFor?: (worker: string | null) => string | undefined,
): NotifyEvent {
  const url = urlFor?.(row.worker);
  const who = row.worker ?? "docket";
  return {
    event: row.kind,
    id: row.id,
    worker: row.worker,
    ref: row.kind === "ready" ? row.deliverableRef : row.item,
    title: `${who} ${TITLES[row.kind]}`,
    text: plainText(row.body, 400),
    ...(url ? { url } : {}),
    at: row.createdAt,
  };
}

/** One desktop message for a batch: one event says itself; several say how many and list the first few. */
export function formatNotifyBatch(events: readonly NotifyEvent[]): { summary: string; body: string } {
  if (events.length === 1) return { summary: `Docket: ${events[0]!.title}`, body: events[0]!.text };
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.event, (counts.get(e.event) ?? 0) + 1);
  const summary = `Docket: ${events.length} events (${[...counts].map(([k, n]) => `${n} ${k}`).join(", ")})`;
  const shown = events.slice(0, 5).map((e) => `${e.title}: ${plainText(e.text, 80)}`);
  if (events.length > shown.length) shown.push(`… and ${events.length - shown.length} more`);
  return { summary, body: shown.join("\n") };
}

/** The terminal's own notification (OSC 777 where supported, else OSC 9), wrapped for tmux's passthrough inside tmux. */
export function formatTerminalNotice(message: { summary: string; body: string }, insideTmux: boolean): string {
  const title = plainText(message.summary, 100).replace(/;/g, ",");
  const body = plainText(message.body, 200).replace(/;/g, ",");
  const seq = `\u001b]777;notify;${title};${body}\u0007\u001b]9;${title}: ${body}\u0007`;
  return insideTmux ? `\u001bPtmux;${seq.replace(/\u001b/g, "\u001b\u001b")}\u001b\\` : seq;
}
