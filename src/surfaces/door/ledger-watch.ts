// The door's watcher: one data_version read every WATCH_MS for every worker together. When the ledger moved, the
// sockets follow it and waiting inboxes are woken; with its control socket gone or nothing to serve, the door stops.

import type { EngineContext } from "../../engine/context.js";
import { socketInode, type DoorPaths } from "../../engine/door/serve.js";
import { ledgerVersion } from "../../engine/talk/inbox.js";
import type { InboxWaiters } from "./inbox-waiters.js";
import type { WorkerSockets } from "./worker-sockets.js";

/** How often the door looks at the ledger's data_version (one cheap pragma for every worker together). */
export const WATCH_MS = 100;
/** With no generation to serve and no connection open for this long, the door stops. */
export const IDLE_STOP_MS = 10_000;

export interface LedgerWatchOptions {
  base: EngineContext;
  paths: DoorPaths;
  /** The inode of the control socket this door listens on: another one there means another door took over. */
  controlIno: number;
  sockets: WorkerSockets;
  inbox: InboxWaiters;
  shutdown(): Promise<void>;
}

export interface LedgerWatch {
  /** The data_version last seen. */
  version(): number;
  stop(): void;
}

export function watchLedger(o: LedgerWatchOptions): LedgerWatch {
  const { base, sockets, inbox } = o;
  let lastVersion = ledgerVersion(base);
  let idleSince: number | undefined;

  async function tick(): Promise<void> {
    // The home went away, or another door took it over.
    if (socketInode(o.paths.control) !== o.controlIno) return o.shutdown();
    const version = ledgerVersion(base);
    if (version !== lastVersion) {
      lastVersion = version;
      await sockets.sync();
      inbox.wake(version);
    }
    if (sockets.served.size === 0 && sockets.connections() === 0 && inbox.count() === 0) {
      idleSince ??= Date.now();
      if (Date.now() - idleSince <= IDLE_STOP_MS) return;
      // Read the ledger once more right before stopping: a spawn that committed since the last tick keeps it serving.
      // shutdown removes the control socket in this same turn, so a spawn after this read starts a new door.
      await sockets.sync();
      if (sockets.served.size === 0) return o.shutdown();
    } else idleSince = undefined;
  }

  const onTickError = (error: unknown) => process.stderr.write(`door: ${(error as Error).message}\n`);
  const timer = setInterval(() => void tick().catch(onTickError), WATCH_MS);
  return { version: () => lastVersion, stop: () => clearInterval(timer) };
}
