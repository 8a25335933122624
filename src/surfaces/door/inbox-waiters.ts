// The door's inbox long-polls: a worker waits on its socket until a message is queued for it or the wait times out.
// The door's watcher wakes them when the ledger moves, so workers are pushed to, never polling the ledger themselves.

import type { EngineContext } from "../../engine/context.js";
import { inboxHasQueued, ledgerVersion } from "../../engine/talk/inbox.js";
import type { Reply } from "./lines.js";

const LONG_POLL_MAX_MS = 25_000;

interface Waiter {
  worker: string;
  after: number;
  answer(reply: Reply): void;
}

export interface InboxWaiters {
  /** Answers at once when something is queued since `args.after`, else when it is or the wait runs out. */
  wait(worker: string, args: Record<string, unknown>): Promise<Reply>;
  /** Answers every waiter with something queued at `version`, the ledger's new data_version. */
  wake(version: number): void;
  /** Answers every waiter with nothing queued: the door is stopping. */
  release(version: number): void;
  count(): number;
}

export function createInboxWaiters(base: EngineContext): InboxWaiters {
  const waiters = new Set<Waiter>();
  const answer = (version: number, queued: boolean): Reply => ({ ok: true, result: { version, queued } });
  return {
    wait(worker, args) {
      const after = typeof args.after === "number" ? args.after : -1;
      const asked = typeof args.timeoutMs === "number" && args.timeoutMs >= 0 ? args.timeoutMs : LONG_POLL_MAX_MS;
      const wait = Math.min(asked, LONG_POLL_MAX_MS);
      const version = ledgerVersion(base);
      const queued = inboxHasQueued(base, worker);
      if ((queued && version !== after) || wait === 0) return Promise.resolve(answer(version, queued));
      return new Promise((done) => {
        const waiter: Waiter = {
          worker,
          after,
          answer: (reply) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            done(reply);
          },
        };
        const timer = setTimeout(() => waiter.answer(answer(ledgerVersion(base), inboxHasQueued(base, worker))), wait);
        waiters.add(waiter);
      });
    },
    wake(version) {
      for (const w of [...waiters]) {
        if (w.after !== version && inboxHasQueued(base, w.worker)) w.answer(answer(version, true));
      }
    },
    release(version) {
      for (const w of [...waiters]) w.answer(answer(version, false));
    },
    count: () => waiters.size,
  };
}
