// The parent role of the pi extension (the human's session): /docket commands, the dock, notifications, chips.
// Worker text never enters the model's context unless the human puts it there (Use → Parent chips only).

import { watch, type FSWatcher } from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { KeyId } from "@mariozechner/pi-tui";
import {
  dockRows,
  lastMessageMark,
  ledgerStamp,
  markNotificationsDelivered,
  messageDeliveriesSince,
  pendingParentNotifications,
  queuedChips,
  type DockRow,
  type PatchFileCache,
} from "../../../engine/talk/parent-feed.js";
import { visibleText } from "../../../domain/text/visible-text.js";
import { userConfig } from "../../../engine/user-config.js";
import { startParentSession } from "../../../engine/parent-session.js";
import { runCli } from "../../shared/verbs/run.js";
import { createEngineSession, type EngineOpener } from "../../shared/session.js";
import {
  DOCK_MAX_LINES,
  formatChipLine,
  formatDeliveries,
  formatDock,
  formatDockStatus,
  formatFoldedNotices,
  notificationBatches,
} from "./dock.js";
import type { ParentHost } from "./host.js";
import { createParentIo } from "./io.js";
import { agentSideLine, forPi, helpRequest, piHelpLines } from "./pi-help.js";
import { tokenize } from "./tokenize.js";
import { attachChips } from "./chips.js";
import { startConsultLane } from "./consult.js";
import { chatMoved, noticeFor } from "./chat-notice.js";
import { viewFor } from "./views.js";
import { completeDocket } from "./completions.js";
import { boxParentTools } from "./tool-box.js";
import { startNotifyDispatcher } from "../../../engine/talk/notify-dispatch.js";

export { completeDocket, type CompletionItem } from "./completions.js";

/** Fallback when file events are missed: compare data_version (microseconds) every 5 s. */
const SLOW_POLL_MS = 5_000;
/** Ages, staleness and liveness move with time alone: the dock is recomputed once a minute even when idle. */
const FULL_REPAINT_EVERY = 12;
const SETTLE_MS = 100;

export function registerParentRole(pi: ExtensionAPI): void {
  // Before the model can run a tool: whatever it starts inherits the mark and is refused human verbs.
  const session = startParentSession(process.env);
  process.once("exit", () => session.stop());
  boxParentTools(pi, process.env); // and whatever they start runs without Docket's home
  // The composition point: one engine for this pi session's views and verbs, opened on first use, never closed.
  const engine = createEngineSession({ env: process.env, cwd: process.cwd(), holder: `pi:${process.pid}` }).engine;
  let feed: ParentFeed | undefined;
  // Workers spawned from here inherit this session's model and thinking (the "parent" of
  // docs/decisions/spawn-policy.md).
  const host = (ctx: ExtensionContext): ParentHost => ({
    ctx,
    engine,
    parent: {
      ...(ctx.model ? { model: `${ctx.model.provider}/${ctx.model.id}` } : {}),
      thinking: pi.getThinkingLevel(),
      ...(ctx.sessionManager.getSessionFile() ? { sessionFile: ctx.sessionManager.getSessionFile() } : {}),
    },
    refresh: () => feed?.refresh(),
  });

  pi.registerCommand("docket", {
    description: "Docket: spawn, watch and review workers (/docket help)",
    getArgumentCompletions: (prefix) => completeDocket(prefix, () => dockRows(engine())),
    handler: async (args, ctx) => {
      const tui = ctx.hasUI && process.stdout.isTTY;
      const run = () => runDocketCommand(args, host(ctx), { tui, refresh: () => feed?.refresh() });
      // Interactive pi drops whatever the human submits while a command handler is still running, so there the
      // command runs on its own and the editor is free at once. RPC and print mode wait: their callers need the
      // command's output before the prompt's response.
      if (tui) void run();
      else await run();
    },
  });

  const fleetKey = userConfig(process.env).config.pi.fleetKey;
  if (fleetKey !== "") {
    pi.registerShortcut(fleetKey as KeyId, {
      description: "Docket: the fleet dashboard",
      handler: async (ctx) => {
        const { openFleet } = await import("./fleet-flow.js");
        await openFleet(host(ctx));
      },
    });
  }

  pi.on("session_start", async (_event, ctx) => {
    if (session.warning) noticeFor(ctx, `docket: ${session.warning}`, "warning");
    if (!ctx.hasUI || feed) return; // print/json mode: no dock, nothing waits; session_start may arrive twice
    feed = startFeed(ctx, engine);
  });
  pi.on("session_shutdown", async () => {
    feed?.stop();
    feed = undefined;
  });
  pi.on("input", async (event, ctx) => attachChips(event, ctx, engine, () => feed?.refresh()));
  pi.on("message_start", async () => chatMoved());
}

/** One `/docket …` line: a focused view in pi's TUI, the help, or the verb run through the CLI with pi's io. */
async function runDocketCommand(
  args: string,
  parentHost: ParentHost,
  { tui, refresh }: { tui: boolean; refresh: () => void },
): Promise<void> {
  const { ctx } = parentHost;
  const argv = tokenize(args);
  // In pi's TUI the card, the diff and the fleet are focused views; elsewhere (RPC, print) the verbs print.
  const view = tui ? viewFor(argv) : undefined;
  if (view) {
    await view(parentHost);
    refresh();
    return;
  }
  const end = argv.indexOf("--");
  const json = (end === -1 ? argv : argv.slice(0, end)).includes("--json");
  const help = helpRequest(argv);
  const verb = help?.kind === "verb" ? help.verb : argv[0];
  const translate = json ? {} : { translate: (text: string) => forPi(text, verb) };
  const io = createParentIo(ctx, { json, parent: parentHost.parent, ...translate });
  if (help?.kind === "all" || help?.kind === "agent-side") {
    if (help.kind === "all") io.out(piHelpLines().join("\n"));
    else io.err(agentSideLine(help.verb));
    io.flush(help.kind !== "all");
    return;
  }
  const cliArgv = help ? [help.verb, "--help"] : argv[0] === "fleet" ? ["ls", ...argv.slice(1)] : argv;
  let code: number;
  try {
    code = await runCli(cliArgv, io, { engine: async () => parentHost.engine });
  } catch (error) {
    io.err(`docket: ${(error as Error).message}`); // runCli reports its own errors; this is a host failure
    code = 1;
  }
  io.flush(code !== 0);
  refresh();
}

interface ParentFeed {
  refresh(): void;
  stop(): void;
}

/**
 * Watches the ledger's files, confirms a change with data_version, and repaints dock + notifications.
 * The UI is only touched when the dock's text changed or a notification is due, so an idle fleet costs one
 * data_version read per slow poll and one dock query a minute.
 */
function startFeed(ctx: ExtensionContext, engine: EngineOpener): ParentFeed {
  const e = engine();
  const cache: PatchFileCache = new Map();
  const messagesFrom = lastMessageMark(e); // deliveries of messages sent from now on are shown in the dock
  const readSeen = new Map<string, number>();
  let stamp = -1;
  let shownWidget = "";
  let shownStatus: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const paint = (force: boolean) => {
    const now = ledgerStamp(e);
    if (!force && now === stamp) return;
    stamp = now;
    const rows: DockRow[] = dockRows(e, cache);
    const deliveries = messageDeliveriesSince(e, messagesFrom);
    for (const d of deliveries)
      if (d.delivery === "read" && !readSeen.has(d.message)) readSeen.set(d.message, e.clock.nowMs());
    const extra = [...formatDeliveries(deliveries, e.clock.nowMs(), readSeen), ...formatChipLine(queuedChips(e))];
    const lines = [...formatDock(rows, e.clock.nowMs(), DOCK_MAX_LINES - extra.length), ...extra];
    const widget = lines.join("\n");
    if (widget !== shownWidget) {
      ctx.ui.setWidget("docket", lines.length > 0 ? lines.map(visibleText) : undefined); // tasks and refs: worker text
      shownWidget = widget;
    }
    const status = formatDockStatus(rows);
    if (status !== shownStatus) {
      ctx.ui.setStatus("docket", status);
      shownStatus = status;
    }
    const { fresh, stale } = pendingParentNotifications(e);
    // Settled before anyone saw them (a judged version, an answered question, a deleted worker): one line, not a replay.
    if (stale.length > 0) noticeFor(ctx, formatFoldedNotices(stale.length), "info");
    // One message per level and repaint, so notifications that arrive together are read together.
    for (const batch of notificationBatches(fresh)) noticeFor(ctx, batch.text, batch.level);
    markNotificationsDelivered(
      e,
      [...stale, ...fresh].map((n) => n.id),
    );
  };
  // The parent is a long-lived process: it sends due notifications outside the terminal. pi owns the
  // terminal, so the terminal sink is not driven from here.
  const dispatcher = startNotifyDispatcher(e, { holder: `pi:${process.pid}` });
  const lane = startConsultLane(
    ctx,
    () => e,
    (message) => ctx.ui.setStatus("docket", (shownStatus = visibleText(message))),
  );
  const safePaint = (force: boolean) => {
    try {
      paint(force);
      lane.sweep();
    } catch (error) {
      // The dock is a view; a failed repaint is shown in the footer and retried on the next change or poll.
      shownStatus = visibleText(`docket · dock unavailable: ${(error as Error).message}`);
      ctx.ui.setStatus("docket", shownStatus);
    }
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(e.home.root, (_event, name) => {
      if (name && !String(name).startsWith("ledger.sqlite")) return;
      // Throttle, not debounce: a busy ledger still repaints every SETTLE_MS instead of never.
      timer ??= setTimeout(() => {
        timer = undefined;
        safePaint(false);
      }, SETTLE_MS);
    });
    watcher.unref();
  } catch {
    // No file watching here (some filesystems): the slow poll below still keeps the dock current.
  }
  let polls = 0;
  const poll = setInterval(() => safePaint(++polls % FULL_REPAINT_EVERY === 0), SLOW_POLL_MS);
  poll.unref();
  safePaint(true);
  return {
    refresh: () => safePaint(true),
    stop: () => {
      watcher?.close();
      clearInterval(poll);
      clearTimeout(timer);
      dispatcher.stop();
      lane.stop();
    },
  };
}
