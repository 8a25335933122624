// The MCP server's life beside the calls: a heartbeat while the agent lives, and inbox delivery into its pane.
// A fence refusal means this agent process was replaced: both loops stop, and its calls keep being refused.

import { isDocketError } from "../../domain/errors.js";
import { HEARTBEAT_INTERVAL_MS } from "../../domain/workers/lifecycle.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { EngineContext } from "../../engine/context.js";
import { deliverToAgentPane } from "../../engine/talk/agent-inbox.js";
import { ledgerVersion } from "../../engine/talk/inbox.js";
import { appendWorkerEvent } from "../../engine/workers/events.js";
import { recordHeartbeat } from "../../engine/workers/lifecycle.js";

export const DELIVERY_POLL_MS = 300;

export function startWorkerLoop(engine: () => EngineContext, who: WorkerIdentity): { stop(): void } {
  const timers: NodeJS.Timeout[] = [];
  let lastVersion = -1;
  const stop = () => timers.splice(0).forEach((t) => clearInterval(t));

  function guarded(what: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      if (isDocketError(error) && error.category === "fenced") stop();
      try {
        appendWorkerEvent(engine(), who.worker, { type: "error", during: what, message: (error as Error).message, generation: who.generation });
      } catch {
        // The events file is the last place to record this; if it cannot be written the error is lost by design.
      }
    }
  }

  // The agent is our parent process: its pid is the worker's.
  const beat = () => guarded("heartbeat", () => void recordHeartbeat(engine(), who, { pid: process.ppid }));
  const deliver = () =>
    guarded("inbox", () => {
      const version = ledgerVersion(engine());
      if (version === lastVersion) return;
      lastVersion = version;
      deliverToAgentPane(engine(), who);
    });
  beat();
  timers.push(setInterval(beat, HEARTBEAT_INTERVAL_MS), setInterval(deliver, DELIVERY_POLL_MS));
  for (const t of timers) t.unref();
  return { stop };
}
