// The MCP server's life beside the calls: a heartbeat while the agent lives, and inbox delivery into its pane, both
// through the door. Delivery waits on the door's long-poll (it answers when a message is queued), never on a timer.
// A fence refusal means this agent process was replaced: both loops stop, and its calls keep being refused.

import { isDocketError } from "../../domain/errors.js";
import { HEARTBEAT_INTERVAL_MS } from "../../domain/workers/lifecycle.js";
import { callDoor, type Door } from "../shared/door-client.js";

export function startWorkerLoop(door: Door): { stop(): void } {
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const stop = () => {
    stopped = true;
    timers.splice(0).forEach((t) => clearInterval(t));
  };

  async function guarded(what: string, fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      if (isDocketError(error) && error.category === "fenced") stop();
      await callDoor(door, "event", {
        event: { type: "error", during: what, message: (error as Error).message },
      }).catch(() => undefined);
    }
  }

  // The agent is our parent process: its pid is the worker's.
  const beat = () => void guarded("heartbeat", () => callDoor(door, "heartbeat", { pid: process.ppid }));
  beat();
  const t = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  t.unref();
  timers.push(t);

  void (async () => {
    let after = -1;
    while (!stopped) {
      await guarded("inbox", async () => {
        const seen = await callDoor<{ version: number; queued: boolean }>(
          door,
          "inbox-wait",
          { after },
          { waitMs: 25_000 },
        );
        after = seen.version;
        if (seen.queued && !stopped) await callDoor(door, "deliver-pane", {});
      });
      if (stopped) break;
    }
  })();
  return { stop };
}
