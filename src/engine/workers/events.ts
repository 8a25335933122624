// Appends one activity event to workers/<id>/events.ndjson (tool starts/ends, inbox deliveries, fence refusals).

import { join } from "node:path";
import { appendEventLine } from "../../files/workers/events-log.js";
import type { EngineContext } from "../context.js";

export function appendWorkerEvent(ctx: EngineContext, worker: string, event: Record<string, unknown>): void {
  appendEventLine(join(ctx.home.workerDir(worker), "events.ndjson"), { at: ctx.clock.now(), ...event });
}
