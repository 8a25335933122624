// Appends one activity event to fleet/<id>/events.ndjson (tool starts/ends, inbox deliveries, fence refusals).
// Never through a link in the home: such a directory is refused like every other write there
// (docs/decisions/authority.md).

import { appendEventLine, appendKeyedEventLine } from "../../files/workers/events-log.js";
import { WORKER_FILES, workerFilePath } from "../../files/workers/worker-files.js";
import type { EngineContext } from "../context.js";

export function appendWorkerEvent(ctx: EngineContext, worker: string, event: Record<string, unknown>): void {
  appendEventLine(workerFilePath(ctx.home, worker, WORKER_FILES.events), { at: ctx.clock.now(), ...event });
}

/** A worker's own event, keyed by its client's call id: a retry of the same call appends nothing more. */
export function appendKeyedWorkerEvent(
  ctx: EngineContext,
  worker: string,
  event: Record<string, unknown>,
  key: string,
): boolean {
  return appendKeyedEventLine(
    workerFilePath(ctx.home, worker, WORKER_FILES.events),
    { at: ctx.clock.now(), ...event },
    key,
  );
}
