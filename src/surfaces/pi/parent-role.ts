// The parent role of the pi extension (the human's session): /docket commands, the dock, notifications, chips.
// Worker text never enters the model's context unless the human puts it there (Use → Parent chips only).

import { watch, type FSWatcher } from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { dockRows, ledgerStamp, markNotificationsDelivered, pendingParentNotifications } from "../../engine/parent-feed.js";
import { listVerbs, runCli } from "../cli/main.js";
import { engine } from "../cli/session.js";
import { formatDock, formatDockStatus, formatNotification } from "./dock.js";
import { createParentIo } from "./parent-io.js";
import { tokenize } from "./tokenize.js";
import { attachChips } from "./chips.js";

const WORKER_VERBS = new Set(["show", "peek", "tell", "attach", "verdict", "approve", "reject", "revise", "answer", "promote", "discard", "use", "respawn", "delete", "report", "diff", "dispatch", "save"]);
const SLOW_POLL_MS = 5_000;
const DEBOUNCE_MS = 150;

export function registerParentRole(pi: ExtensionAPI): void {
  let feed: ParentFeed | undefined;

  pi.registerCommand("docket", {
    description: "Docket: spawn, watch and review workers (/docket help)",
    getArgumentCompletions: (prefix) => completeDocket(prefix),
    handler: async (args, ctx) => {
      const argv = tokenize(args);
      const io = createParentIo(ctx);
      const code = await runCli(argv.length === 0 || argv[0] === "help" ? ["--help", ...argv.slice(1)] : argv, io, { keepEngine: true });
      io.flush(code !== 0);
      feed?.refresh(ctx);
    },
  });

  pi.on("session_start", async (_event, ctx) => {
    if (!ctx.hasUI || feed) return; // print/json mode: no dock, nothing waits
    feed = startFeed(ctx);
  });
  pi.on("session_shutdown", async () => {
    feed?.stop();
    feed = undefined;
  });
  pi.on("input", async (event, ctx) => attachChips(event, ctx));
}

interface ParentFeed {
  refresh(ctx: ExtensionContext): void;
  stop(): void;
}

/** Watches the ledger's files, confirms a change with data_version, and repaints dock + notifications. */
function startFeed(ctx: ExtensionContext): ParentFeed {
  const e = engine();
  let stamp = -1;
  let timer: NodeJS.Timeout | undefined;
  const paint = (force: boolean) => {
    const now = ledgerStamp(e);
    if (!force && now === stamp) return;
    stamp = now;
    const rows = dockRows(e);
    ctx.ui.setWidget("docket", rows.length > 0 ? formatDock(rows, e.clock.nowMs()) : undefined);
    ctx.ui.setStatus("docket", formatDockStatus(rows));
    const pending = pendingParentNotifications(e);
    for (const n of pending) ctx.ui.notify(formatNotification(n), n.kind === "failed" ? "error" : n.kind === "question" || n.kind === "blocked" ? "warning" : "info");
    markNotificationsDelivered(e, pending.map((n) => n.id));
  };
  const safePaint = (force: boolean) => {
    try {
      paint(force);
    } catch (error) {
      // The dock is a view; a failed repaint is shown once and retried on the next change.
      ctx.ui.setStatus("docket", `docket · dock unavailable: ${(error as Error).message}`);
    }
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(e.home.root, (_event, name) => {
      if (name && !String(name).startsWith("ledger.sqlite")) return;
      clearTimeout(timer);
      timer = setTimeout(() => safePaint(false), DEBOUNCE_MS);
    });
  } catch {
    // No file watching here (some filesystems): the slow poll below still keeps the dock current.
  }
  const poll = setInterval(() => safePaint(true), SLOW_POLL_MS);
  poll.unref();
  safePaint(true);
  return {
    refresh: () => safePaint(true),
    stop: () => {
      watcher?.close();
      clearInterval(poll);
      clearTimeout(timer);
    },
  };
}

function completeDocket(prefix: string): { value: string; label: string; description?: string }[] | null {
  const parts = prefix.split(/\s+/);
  const verbs = listVerbs();
  if (parts.length <= 1) {
    const p = parts[0] ?? "";
    return verbs.filter((v) => v.name.startsWith(p)).map((v) => ({ value: v.name, label: v.name, description: v.description }));
  }
  const [verb, ...rest] = parts;
  const last = rest[rest.length - 1] ?? "";
  const head = parts.slice(0, -1).join(" ");
  const sub = verbs.find((v) => v.name === verb)?.subcommands ?? [];
  if (rest.length === 1 && sub.length > 0) {
    return sub.filter((s) => s.startsWith(last)).map((s) => ({ value: `${head} ${s}`, label: s }));
  }
  if (!WORKER_VERBS.has(verb!)) return null;
  try {
    return dockRows(engine())
      .filter((r) => r.worker.startsWith(last))
      .map((r) => ({ value: `${head} ${r.worker}`, label: r.worker, description: `${r.state} · ${r.task}` }));
  } catch {
    return null; // completion is a convenience; a ledger that cannot be read just offers nothing
  }
}
