// Live updates: ONE watcher per server reads the ledger's `data_version` (a file event or a short poll says when to
// look) and fans Server-Sent Events out to every open tab: `pulse` when the review side changed, `ledger` on any change.

import { watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import type { ServerResponse } from "node:http";
import type { EngineContext } from "../../engine/context.js";
import { reviewPulse } from "../../engine/review/review-pulse.js";
import { ledgerStamp } from "../../engine/talk/parent-feed.js";

export interface LivePulse {
  stamp: number;
  needs: number;
  queue: { worker: string; version: number | null; rank: number }[];
  /** Per worker: current version, newest decision, open questions, persisted state: a card compares its own. */
  workers: Record<string, { v: number | null; d: string | null; q: number; s: string }>;
}

export interface LiveHub {
  attach(res: ServerResponse): void;
  /** Look now (after this server's own write: data_version only moves for other connections' commits). */
  poke(): void;
  current(): LivePulse;
  clients(): number;
  stop(): void;
}

const POLL_MS = 250;
/** What a tab reacts to: everything but the stamp. */
const keyOf = (p: LivePulse): string => JSON.stringify({ ...p, stamp: 0 });
const LEDGER_EVENT_EVERY_MS = 1_000;
const KEEPALIVE_MS = 20_000;

export function createLiveHub(
  ctx: EngineContext,
  options: { pollMs?: number; onError?: (error: Error) => void } = {},
): LiveHub {
  const clients = new Set<ServerResponse>();
  let stamp = ledgerStamp(ctx);
  let pulse = read();
  let lastLedgerEvent = 0;
  let ledgerTimer: NodeJS.Timeout | undefined;

  function read(): LivePulse {
    const p = reviewPulse(ctx);
    const workers: LivePulse["workers"] = {};
    for (const w of p.workers) workers[w.worker] = { v: w.version, d: w.lastDecision, q: w.openQuestions, s: w.state };
    return { stamp, needs: p.queue.length, queue: p.queue, workers };
  }

  const send = (event: string, data: string): void => {
    for (const res of clients) res.write(`event: ${event}\ndata: ${data}\n\n`);
  };

  const sendLedger = (): void => {
    ledgerTimer = undefined;
    lastLedgerEvent = Date.now();
    send("ledger", JSON.stringify({ stamp }));
  };

  function check(force: boolean): void {
    try {
      const now = ledgerStamp(ctx);
      if (!force && now === stamp) return;
      stamp = now;
      const next = read();
      if (keyOf(next) !== keyOf(pulse)) send("pulse", JSON.stringify(next));
      pulse = next;
      // Heartbeats move data_version every few seconds: the catch-all event is throttled to one a second.
      const wait = LEDGER_EVENT_EVERY_MS - (Date.now() - lastLedgerEvent);
      if (wait <= 0) sendLedger();
      else ledgerTimer ??= setTimeout(sendLedger, wait);
    } catch (error) {
      options.onError?.(error as Error); // a failed look is retried on the next poll; tabs keep their last state
    }
  }

  const poll = setInterval(() => check(false), options.pollMs ?? POLL_MS);
  const keepalive = setInterval(() => {
    for (const res of clients) res.write(": keepalive\n\n");
  }, KEEPALIVE_MS);
  let watcher: FSWatcher | undefined;
  try {
    const wal = `${basename(ctx.home.ledger)}-wal`;
    watcher = watch(dirname(ctx.home.ledger), (_event, name) => {
      if (name === wal || name === basename(ctx.home.ledger)) check(false);
    });
    watcher.on("error", () => watcher?.close()); // the poll alone still catches every change, a little later
  } catch {
    watcher = undefined; // no file events on this filesystem: the poll is the watcher
  }

  return {
    attach(res) {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      res.write(`retry: 1000\nevent: pulse\ndata: ${JSON.stringify(pulse)}\n\n`);
      clients.add(res);
      res.on("close", () => clients.delete(res));
    },
    poke: () => check(true),
    current: () => pulse,
    clients: () => clients.size,
    stop() {
      clearInterval(poll);
      clearInterval(keepalive);
      if (ledgerTimer) clearTimeout(ledgerTimer);
      watcher?.close();
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
