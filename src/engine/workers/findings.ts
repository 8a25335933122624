// Recording what an observer found about a worker's generation (blocked, stuck, refused): one command per change,
// with one attention line when a finding opens; the same finding seen again records nothing.

import { insertNotification } from "../../ledger/talk/notifications.js";
import {
  clearFindings,
  insertFinding,
  openFindingsOf,
  rewordFinding,
  type FindingKind,
} from "../../ledger/workers/findings.js";
import { getWorker } from "../../ledger/workers/workers.js";
import { isTerminal } from "../../domain/workers/lifecycle.js";
import { plainText } from "../../domain/talk/notify.js";
import type { EngineContext } from "../context.js";

/** The attention line's kind for each finding (`blocked` is also an event for the notification sinks). */
const NOTICE: Record<FindingKind, string> = { blocked: "blocked", stuck: "stuck", refused: "refused" };

/** Opens a finding on the worker's current generation unless the same one is open; true when it was recorded. */
export function recordFinding(
  ctx: EngineContext,
  who: { worker: string; generation: number },
  kind: FindingKind,
  text: string,
): boolean {
  if (ctx.readOnly) return false;
  text = plainText(text, 500); // an agent's words and a pane's lines: no control bytes reach a terminal
  return ctx.commands.run("worker.finding", { ...who, kind, text }, (tx) => {
    const row = getWorker(tx.db, who.worker);
    if (!row || row.generation !== who.generation || row.exited) return false;
    if (kind !== "refused" && (isTerminal(row.state) || row.state === "needs_input")) return false;
    const open = openFindingsOf(tx.db, who.worker).filter((f) => f.kind === kind);
    if (open.at(-1)?.text === text) return false;
    // Still blocked (or stuck), in other words now: the finding says the latest ones; one attention line is enough.
    if (open.length > 0 && kind !== "refused") return rewordFinding(tx, who.worker, kind, text) > 0;
    clearFindings(tx, who.worker, [kind]);
    insertFinding(tx, { worker: who.worker, generation: who.generation, kind, text });
    insertNotification(tx, { kind: NOTICE[kind], worker: who.worker, body: text });
    return true;
  }).result;
}

/** Closes the worker's open findings of these kinds (they no longer hold); true when any was open. */
export function closeFindings(ctx: EngineContext, worker: string, kinds: readonly FindingKind[]): boolean {
  if (ctx.readOnly) return false;
  return ctx.commands.run("worker.finding-cleared", { worker, kinds }, (tx) => clearFindings(tx, worker, kinds) > 0)
    .result;
}
