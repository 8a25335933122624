// A worker call Docket refused (done, wait, todos, report, …) is a fact the human must see: it is recorded as the
// worker's open `refused` finding, on its card and in attention, until one of its work calls is accepted.

import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { plainText } from "../../domain/talk/notify.js";
import { getWorker, runTokenMatches } from "../../ledger/workers/workers.js";
import { openFindingsOf } from "../../ledger/workers/findings.js";
import type { EngineContext } from "../context.js";
import { closeFindings, recordFinding } from "./findings.js";

/** The calls a worker makes about its work: a refusal of one of these leaves the work where it was. */
const WORK_CALL_NAMES = ["done", "wait", "todos", "fail", "report", "consult", "note", "reconcile"] as const;

export const isWorkCall = (call: string): boolean => (WORK_CALL_NAMES as readonly string[]).includes(call);

/** Only the worker's own running generation (right token) can leave a refusal on its card: no one else's word. */
function isCurrent(ctx: EngineContext, who: WorkerIdentity): boolean {
  const row = getWorker(ctx.db, who.worker);
  return row !== undefined && row.generation === who.generation && !row.exited && runTokenMatches(row, who.runToken);
}

/** Records that `call` of this worker was refused with `message` (its own words, flattened to one line). */
export function noteRefusal(ctx: EngineContext, who: WorkerIdentity, call: string, message: string): void {
  if (!isCurrent(ctx, who)) return;
  recordFinding(ctx, who, "refused", `its ${call} call was refused: ${plainText(message, 400)}`);
}

/** A work call was accepted: an earlier refusal no longer stands. */
export function noteAccepted(ctx: EngineContext, who: WorkerIdentity): void {
  if (openFindingsOf(ctx.db, who.worker).some((f) => f.kind === "refused") && isCurrent(ctx, who))
    closeFindings(ctx, who.worker, ["refused"]);
}
