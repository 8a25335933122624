// The one notification dispatcher: claims due events in the ledger (exactly once across processes and restarts),
// batches them, and sends them through every enabled sink. Long-lived processes run it on a timer.

import {
  formatNotifyBatch,
  formatTerminalNotice,
  resolveNotifyEvent,
  type NotifyEvent,
  type NotifySink,
} from "../../domain/talk/notify.js";
import type { DocketConfig } from "../../domain/config.js";
import { claimDueNotifications, hasDueNotification, recordNotifyResult } from "../../ledger/talk/notify-claims.js";
import {
  runSinkArgv,
  sendDesktopNotification,
  startDetached,
  type DesktopClick,
  type SinkOutcome,
} from "../../substrate/notify-sinks.js";
import type { EngineContext } from "../context.js";
import { userConfig } from "../user-config.js";
import { checkRunningBudgets } from "../workers/budget.js";
import { getWorker } from "../../ledger/workers/workers.js";
import { findWebServer, findWebServerOf, webBaseUrl, webCardUrl, type WebPresence } from "../web/presence.js";

export interface NotifySenderOptions {
  /** Who sends, recorded on each claimed row (`web:<pid>`, `pi:<pid>`, `cli:<pid>`, `door:<pid>`). */
  holder: string;
  /** Writes to this process's own terminal; without it the terminal sink says it has no terminal. */
  terminal?: { write(seq: string): void; insideTmux: boolean };
  /**
   * A long-lived sender listens for clicks on its desktop notifications (a click opens the card with
   * `notify.openCommand`); a short-lived command exits at once, so its notifications carry no action.
   */
  clicks?: { hold: DesktopClick["hold"]; onError?: (error: Error) => void };
}

/** How long a desktop notification listens for a click. */
export const CLICK_HOLD_MS = 10 * 60_000;

export interface SinkReport {
  sink: NotifySink;
  state: "sent" | "failed" | "off" | "skipped";
  detail: string;
}

export interface NotifySendResult {
  events: NotifyEvent[];
  sinks: SinkReport[];
}

const CLAIM_LIMIT = 100;

/** Whether any sink this process can drive is on (the web sink is the page's own: it needs no dispatcher). */
export const notifyDispatchEnabled = (c: DocketConfig["notify"]): boolean =>
  c.desktop || c.command.length > 0 || c.terminal;

/** Sends what is due now, if anything: one indexed probe when nothing is (what every short-lived command may afford). */
export async function sendDueNotifications(
  ctx: EngineContext,
  options: NotifySenderOptions,
): Promise<NotifySendResult | undefined> {
  if (ctx.readOnly || ctx.env.DOCKET_WORKER_ID) return undefined; // a worker's process never speaks for the human's side
  // notify.* is user config only: read it alone, without asking git for the project.
  const config = userConfig(ctx.env).config.notify;
  if (!notifyDispatchEnabled(config)) return undefined;
  const dueBefore = new Date(ctx.clock.nowMs() - config.batchSeconds * 1000).toISOString();
  if (!hasDueNotification(ctx.db, dueBefore)) return undefined;
  const rows = ctx.commands.run("notify.claim", { holder: options.holder, dueBefore }, (tx) =>
    claimDueNotifications(tx, { dueBefore, holder: options.holder, limit: CLAIM_LIMIT }),
  ).result;
  if (rows.length === 0) return undefined;
  // Each event's page is its worker's project's: the door sends for every project of the home.
  const pages = new Map<string, WebPresence | undefined>();
  const events: NotifyEvent[] = [];
  let firstPage: WebPresence | undefined;
  for (const r of rows) {
    const root = (r.worker ? getWorker(ctx.db, r.worker)?.projectRoot : undefined) ?? ctx.projectRoot();
    if (!pages.has(root)) pages.set(root, await findWebServerOf(ctx, root));
    const page = pages.get(root);
    firstPage ??= page;
    events.push(
      resolveNotifyEvent(r, (worker) => (page ? (worker ? webCardUrl(page, worker) : webBaseUrl(page)) : undefined)),
    );
  }
  const sinks = await deliver(ctx, events, config, options, firstPage ? webBaseUrl(firstPage) : undefined);
  const said = sinks
    .filter((s) => s.state !== "off")
    .map((s) => `${s.sink} ${s.state}: ${s.detail}`)
    .join("; ");
  ctx.commands.run("notify.result", { ids: rows.map((r) => r.id), said }, (tx) =>
    recordNotifyResult(
      tx,
      rows.map((r) => r.id),
      said,
    ),
  );
  return { events, sinks };
}

/** Sends one batch through every sink and says what each did (used by the dispatcher and by `docket notify test`). */
export async function deliver(
  ctx: EngineContext,
  events: readonly NotifyEvent[],
  config: DocketConfig["notify"],
  options: NotifySenderOptions,
  pageUrl: string | undefined,
): Promise<SinkReport[]> {
  const pageRuns = pageUrl !== undefined;
  const message = formatNotifyBatch(events);
  const outcome = (sink: NotifySink, o: SinkOutcome): SinkReport => ({
    sink,
    state: o.ok ? "sent" : "failed",
    detail: o.detail,
  });
  // One event opens its own card; a batch opens the page's queue.
  const openUrl = events.length === 1 ? (events[0]!.url ?? pageUrl) : pageUrl;
  const clicks = options.clicks;
  const click: DesktopClick | undefined =
    clicks && openUrl
      ? {
          holdMs: CLICK_HOLD_MS,
          hold: clicks.hold,
          onOpen: () =>
            startDetached([...config.openCommand, openUrl], ctx.env, (e) =>
              clicks.onError?.(
                new Error(`notify.openCommand ${JSON.stringify(config.openCommand[0])} could not start: ${e.message}`),
              ),
            ),
        }
      : undefined;
  const desktop = config.desktop
    ? sendDesktopNotification(message, ctx.env, click).then((o) => outcome("desktop", o))
    : off("desktop");
  const lines = events
    .map(
      (e) =>
        `${JSON.stringify({ event: e.event, id: e.id, worker: e.worker, ref: e.ref, title: e.title, text: e.text, ...(e.url ? { url: e.url } : {}), at: e.at })}\n`,
    )
    .join("");
  const command =
    config.command.length > 0
      ? runSinkArgv(config.command, { env: ctx.env, input: lines }).then((o) => outcome("command", o))
      : off("command");
  const terminal: Promise<SinkReport> = !config.terminal
    ? off("terminal")
    : options.terminal
      ? Promise.resolve(writeTerminal(options.terminal, message))
      : Promise.resolve({ sink: "terminal", state: "skipped", detail: "this process has no terminal" });
  const web: SinkReport = !config.web
    ? { sink: "web", state: "off", detail: "notify.web is false" }
    : {
        sink: "web",
        state: "skipped",
        detail: pageRuns
          ? "the open review page shows it itself (browser notification when allowed, and the tab title's count)"
          : "no review page runs (`docket web`)",
      };
  return [await desktop, web, await command, await terminal];
}

function writeTerminal(
  t: NonNullable<NotifySenderOptions["terminal"]>,
  message: { summary: string; body: string },
): SinkReport {
  try {
    t.write(formatTerminalNotice(message, t.insideTmux));
    return {
      sink: "terminal",
      state: "sent",
      detail: t.insideTmux ? "OSC 777/9 through tmux passthrough" : "OSC 777/9",
    };
  } catch (error) {
    return { sink: "terminal", state: "failed", detail: (error as Error).message };
  }
}

const off = (sink: NotifySink): Promise<SinkReport> =>
  Promise.resolve({ sink, state: "off", detail: `notify.${sink} is off` });

export interface NotifyDispatcher {
  /** Sends what is due now (and waits for it). */
  flush(): Promise<NotifySendResult | undefined>;
  /** No more rounds; resolves when the one under way (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * Runs the dispatcher every `intervalMs` in a long-lived process (`docket web`, the pi parent, the worker door):
 * each round first checks running workers' budgets (so one is stopped with no Docket command running), then sends
 * what is due; never two rounds at once; a failed round is reported to `onError` and retried next round.
 */
export function startNotifyDispatcher(
  ctx: EngineContext,
  options: NotifySenderOptions & { intervalMs?: number; onError?: (error: Error) => void },
): NotifyDispatcher {
  let running: Promise<NotifySendResult | undefined> | undefined;
  // Desktop notifications still listening for a click: ended when the dispatcher stops.
  const listening = new Set<() => void>();
  const sender: NotifySenderOptions = {
    ...options,
    clicks: {
      hold: (end) => {
        listening.add(end);
        return () => void listening.delete(end);
      },
      ...(options.onError ? { onError: options.onError } : {}),
    },
  };
  const flush = (): Promise<NotifySendResult | undefined> => {
    running ??= Promise.resolve()
      .then(() => {
        try {
          checkRunningBudgets(ctx);
        } catch (error) {
          options.onError?.(error as Error); // reported; the next round checks again, and what is due still goes out
        }
        return sendDueNotifications(ctx, sender);
      })
      .catch((error: Error) => {
        options.onError?.(error);
        return undefined;
      })
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void flush(), options.intervalMs ?? 1_000);
  timer.unref();
  return {
    flush,
    stop: async () => {
      clearInterval(timer);
      await running; // a round under way finishes (records what its sinks did) before the caller closes the ledger
      for (const end of [...listening]) end();
    },
  };
}

/** `docket notify test`: one sample event through every sink, nothing claimed or recorded; says what each did. */
export async function notifyTest(
  ctx: EngineContext,
  options: NotifySenderOptions,
): Promise<{ sinks: SinkReport[]; event: NotifyEvent }> {
  const page = await findWebServer(ctx);
  const event: NotifyEvent = {
    event: "ready",
    id: "test",
    worker: null,
    ref: null,
    title: "Docket test notification",
    text: "If you read this, this sink reaches you.",
    ...(page ? { url: webBaseUrl(page) } : {}),
    at: ctx.clock.now(),
  };
  return {
    event,
    sinks: await deliver(ctx, [event], userConfig(ctx.env).config.notify, options, page ? webBaseUrl(page) : undefined),
  };
}
