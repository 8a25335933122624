// Engine.report: a worker's per-item word, each entry its own command under its own key (seed 002, DESIGN §5).
// Validation before any store access; inside one transaction the fence, binding and revision checks, then every effect.

import { DocketError, internalError, isDocketError, refusal } from "../../domain/errors.js";
import { parseItemId } from "../../domain/ids.js";
import { applyItemOperation, operationFor } from "../../domain/work/items.js";
import { excerpt, validateReportEntry, type ReportEntry, type ReportEntryInput } from "../../domain/work/report.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { activeBindingOf, resolveBinding } from "../../ledger/work/bindings.js";
import { resolveDispatchIfDone } from "../../ledger/work/dispatch.js";
import { answerReply, listReplies, requireItem, reviseItem } from "../../ledger/work/items.js";
import { cancelPendingReplyReviews, cancelUndeliveredEnvelopes } from "../../ledger/talk/messages.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import { makeObligationDueNow, resolveObligation } from "../../ledger/work/obligations.js";
import { insertReport } from "../../ledger/work/reports.js";
import type { Tx } from "../../ledger/core/runner.js";
import { checkFence } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";

export const REVISION_CHANGED = "Accepted work revision changed; reconcile before reporting";
export const NO_ACTIVE_BINDING = "no active binding for this worker at this generation";

export interface ReportEntryResult {
  item: string;
  status: "resolved" | "pending" | "refused";
  reportId?: string;
  /** Why the entry was refused: the same {code, message, hint?} as every Docket error. */
  error?: { code: string; message: string; hint?: string };
}

/** Reports several entries; each commits or refuses on its own, so one refusal leaves the others committed. */
export function reportEntries(ctx: EngineContext, who: WorkerIdentity, entries: readonly (ReportEntryInput & { key?: string })[]): ReportEntryResult[] {
  return entries.map((entry) => report(ctx, who, entry));
}

/** Reports one entry. Refusals come back as `status: "refused"`; only bugs throw. */
export function report(ctx: EngineContext, who: WorkerIdentity, input: ReportEntryInput & { key?: string }): ReportEntryResult {
  const item = typeof input?.item === "string" ? input.item.trim() : String(input?.item ?? "");
  try {
    const entry = checkEntry(input);
    const request = { who: { worker: who.worker, generation: who.generation, runToken: who.runToken ?? null }, entry: { ...entry, key: undefined } };
    return ctx.commands.run("report", request, (tx) => recordReport(tx, who, entry), { key: entry.key }).result;
  } catch (error) {
    if (!isDocketError(error) || error.category === "internal") throw error instanceof Error ? error : internalError("report-failed", String(error));
    return { item, status: "refused", error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } };
  }
}

/** Before any store access: the seed's four words and a body, typed evidence, and an item id. */
function checkEntry(input: ReportEntryInput & { key?: string }): ReportEntry {
  const entry = validateReportEntry(input ?? ({} as ReportEntryInput));
  if (!parseItemId(entry.item)) {
    throw new DocketError("validation", "bad-item-id", `"${entry.item}" is not an item id; items are t<N> (todo) or r<N> (request)`);
  }
  return entry;
}

function recordReport(tx: Tx, who: WorkerIdentity, entry: ReportEntry): ReportEntryResult {
  checkFence(tx, who);
  const item = requireItem(tx.db, entry.item);
  const binding = activeBindingOf(tx.db, who, item.id);
  if (!binding) {
    throw refusal("no-active-binding", `${NO_ACTIVE_BINDING} (${who.worker} generation ${who.generation}, item ${item.id})`, "report only items dispatched to you and not yet reported");
  }
  if (item.revision !== binding.accepted_revision) {
    throw refusal("revision-changed", REVISION_CHANGED, `${item.id} is at revision ${item.revision}, you accepted ${binding.accepted_revision}: read it, then \`docket worker reconcile --item ${item.id}\``);
  }
  const replies = listReplies(tx.db, item.id);
  const unknown = Object.keys(entry.answers).filter((id) => !replies.some((r) => r.id === id));
  if (unknown.length > 0) {
    throw refusal("unknown-reply", `${unknown.join(", ")} ${unknown.length === 1 ? "is not a reply" : "are not replies"} on ${item.id}`, `run \`docket item show ${item.id}\` to see its replies`);
  }
  const answering = Object.keys(entry.answers);

  if (entry.outcome === "blocked") {
    const reportId = writeReport(tx, who, binding.id, entry);
    answerReplies(tx, replies.filter((r) => r.state === "unanswered" && answering.includes(r.id)).map((r) => r.id), entry, reportId);
    makeObligationDueNow(tx, binding.id);
    insertNotification(tx, { kind: "blocked", worker: who.worker, item: item.id, report: reportId, body: excerpt(entry.body), forHuman: entry.forHuman });
    return { item: item.id, status: "pending", reportId };
  }

  // The item operation runs first: if it refuses, nothing below is written and the command rolls back.
  const op = applyItemOperation(operationFor(item.kind, entry.outcome), item, replies, { body: entry.body, answers: answering });
  const reportId = writeReport(tx, who, binding.id, entry);
  answerReplies(tx, op.answeredReplies, entry, reportId);
  reviseItem(tx, item.id, { state: op.state, closingNote: op.closingNote });
  resolveBinding(tx, binding.id);
  cancelPendingReplyReviews(tx, { worker: binding.worker, binding: binding.id });
  resolveObligation(tx, binding.id, reportId);
  if (resolveDispatchIfDone(tx, binding.dispatch)) cancelUndeliveredEnvelopes(tx, { worker: binding.worker, dispatch: binding.dispatch });
  insertNotification(tx, { kind: "outcome", worker: who.worker, item: item.id, report: reportId, body: excerpt(entry.body), forHuman: entry.forHuman });
  return { item: item.id, status: "resolved", reportId };
}

function writeReport(tx: Tx, who: WorkerIdentity, binding: string, entry: ReportEntry): string {
  return insertReport(tx, {
    item: entry.item,
    binding,
    worker: who.worker,
    generation: who.generation,
    outcome: entry.outcome,
    body: entry.body,
    evidence: entry.evidence,
    forHuman: entry.forHuman,
    answers: entry.answers,
  });
}

function answerReplies(tx: Tx, ids: readonly string[], entry: ReportEntry, reportId: string): void {
  for (const id of ids) answerReply(tx, id, entry.answers[id]!, reportId);
}
