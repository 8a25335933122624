// Engine.report: a worker's per-item word, each entry its own command under its own key
// (docs/decisions/item-reports.md). One refused entry leaves the others committed (docs/decisions/item-reports.md);
// inside each command the fence, binding and revision checks.

import { DocketError, isDocketError, refusal, validationError } from "../../domain/errors.js";
import { optionalKey } from "../../domain/idempotency.js";
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
import type { CommandStep, StepOutcome, Tx } from "../../ledger/core/runner.js";
import { fencedStep } from "./fenced.js";
import type { EngineContext } from "../context.js";

export const REVISION_CHANGED = "Accepted work revision changed; reconcile before reporting";
export const NO_ACTIVE_BINDING = "no active binding for this worker at this generation";

export interface ReportEntryResult {
  item: string;
  status: "resolved" | "pending";
  reportId: string;
}

/** One entry of a refused call, inside the error's `results`: why it was refused, or that it was not recorded. */
export interface EntryVerdict {
  item: string;
  status: "resolved" | "pending" | "refused" | "not-recorded";
  reportId?: string;
  error?: { code: string; message: string; hint?: string };
}

/**
 * Reports several entries, each its own command under its own key: one refused entry leaves the others committed
 * (docs/decisions/item-reports.md). A call with any refused entry is refused naming each, the others' results riding
 * inside the error.
 */
export function reportEntries(
  ctx: EngineContext,
  who: WorkerIdentity,
  inputs: readonly ReportEntryInput[],
): ReportEntryResult[] {
  if (!Array.isArray(inputs))
    throw validationError(
      "items-invalid",
      "items must be a list of {item, outcome, body, evidence?, forHuman?, answers?}",
    );
  const verdicts = inputs.map((input): { item: string; result?: ReportEntryResult; error?: DocketError } => {
    const item = typeof input?.item === "string" ? input.item.trim() : String(input?.item ?? "");
    try {
      const entry = checkEntry(input);
      const step = reportStep(
        who,
        entry,
        optionalKey({ tool: "report", worker: who.worker, callId: entry.callId, item: entry.item }),
      );
      return {
        item: entry.item,
        result: ctx.commands.run(step.command, step.request, step.fn, { key: step.key }).result,
      };
    } catch (error) {
      if (!isDocketError(error) || error.category === "internal") throw error;
      return { item, error };
    }
  });
  if (verdicts.every((v) => v.error === undefined)) return verdicts.map((v) => v.result!);
  throw entriesRefused(
    verdicts.map((v) => ({ item: v.item, error: v.error, recorded: v.result })),
    "",
    "the others were recorded",
  );
}

/** Reports one entry; a refusal throws (nothing written), with the entry's own code and message. */
export function report(ctx: EngineContext, who: WorkerIdentity, input: ReportEntryInput): ReportEntryResult {
  return reportEntries(ctx, who, [input])[0]!;
}

/**
 * Before any store access, every entry of a call: the seed's four words and a body, typed evidence, an item id.
 * One bad entry refuses the whole call, naming each bad entry.
 */
export function checkEntries(inputs: readonly ReportEntryInput[], preface = ""): ReportEntry[] {
  if (!Array.isArray(inputs))
    throw validationError(
      "items-invalid",
      "items must be a list of {item, outcome, body, evidence?, forHuman?, answers?}",
    );
  const checked = inputs.map(
    (input): { ok: true; entry: ReportEntry } | { ok: false; item: string; error: DocketError } => {
      try {
        return { ok: true, entry: checkEntry(input) };
      } catch (error) {
        if (!isDocketError(error) || error.category === "internal") throw error;
        return {
          ok: false,
          item: typeof input?.item === "string" ? input.item.trim() : String(input?.item ?? ""),
          error,
        };
      }
    },
  );
  if (checked.every((c) => c.ok)) return checked.map((c) => (c as { entry: ReportEntry }).entry);
  throw entriesRefused(
    checked.map((c) => (c.ok ? { item: c.entry.item, error: undefined } : { item: c.item, error: c.error })),
    preface,
    "nothing was recorded",
  );
}

/** The command step recording one checked entry (run alone, or beside others that must commit with it). */
export function reportStep(
  who: WorkerIdentity,
  entry: ReportEntry,
  key: string | undefined,
): CommandStep<ReportEntryResult> {
  const request = {
    who: { worker: who.worker, generation: who.generation, runToken: who.runToken },
    entry: { ...entry, callId: undefined },
  };
  return fencedStep({ command: "report", who, request, key }, (tx) => recordReport(tx, who, entry));
}

/** The results of a batch's report steps, or one error naming every refused entry when any was refused. */
export function itemResults(
  entries: readonly ReportEntry[],
  outcomes: readonly StepOutcome<ReportEntryResult>[],
  preface = "",
): ReportEntryResult[] {
  if (outcomes.every((o) => o.ok)) return outcomes.map((o) => (o as { result: ReportEntryResult }).result);
  throw entriesRefused(
    outcomes.map((o, i) =>
      o.ok
        ? { item: entries[i]!.item, error: undefined, recorded: o.replayed ? o.result : undefined }
        : { item: entries[i]!.item, error: o.error },
    ),
    preface,
    "nothing was recorded",
  );
}

/**
 * One refusal for a call with refused entries: the first refusal's code and category; the message names every
 * refused entry (a lone entry keeps its own message verbatim); `results` rides inside the error.
 */
function entriesRefused(
  entries: readonly { item: string; error: DocketError | undefined; recorded?: ReportEntryResult }[],
  preface: string,
  fate: "nothing was recorded" | "the others were recorded",
): DocketError {
  const refused = entries.filter((e) => e.error !== undefined) as { item: string; error: DocketError }[];
  const first = refused[0]!.error;
  const results: EntryVerdict[] = entries.map((e) =>
    e.error
      ? {
          item: e.item,
          status: "refused",
          error: { code: e.error.code, message: e.error.message, ...(e.error.hint ? { hint: e.error.hint } : {}) },
        }
      : (e.recorded ?? { item: e.item, status: "not-recorded" }),
  );
  const message =
    entries.length === 1 && preface === ""
      ? first.message
      : `${preface}${refused.map((e) => `${e.item || "?"}: ${e.error.message}`).join("; ")} (${refused.length} of ${entries.length} ${entries.length === 1 ? "entry" : "entries"} refused; ${fate})`;
  return new DocketError(first.category, first.code, message, { hint: first.hint, details: { results } });
}

/** Before any store access: the seed's four words and a body, typed evidence, and an item id. */
function checkEntry(input: ReportEntryInput): ReportEntry {
  const entry = validateReportEntry(input ?? ({} as ReportEntryInput));
  if (!parseItemId(entry.item)) {
    throw new DocketError(
      "validation",
      "bad-item-id",
      `"${entry.item}" is not an item id; items are t<N> (todo) or r<N> (request)`,
    );
  }
  return entry;
}

function recordReport(tx: Tx, who: WorkerIdentity, entry: ReportEntry): ReportEntryResult {
  const item = requireItem(tx.db, entry.item);
  const binding = activeBindingOf(tx.db, who, item.id);
  if (!binding) {
    throw refusal(
      "no-active-binding",
      `${NO_ACTIVE_BINDING} (${who.worker} generation ${who.generation}, item ${item.id})`,
      "report only items dispatched to you and not yet reported",
    );
  }
  if (item.revision !== binding.acceptedRevision) {
    throw refusal(
      "revision-changed",
      REVISION_CHANGED,
      `${item.id} is at revision ${item.revision}, you accepted ${binding.acceptedRevision}: read it, then \`docket worker reconcile --item ${item.id}\``,
    );
  }
  const replies = listReplies(tx.db, item.id);
  const unknown = Object.keys(entry.answers).filter((id) => !replies.some((r) => r.id === id));
  if (unknown.length > 0) {
    throw refusal(
      "unknown-reply",
      `${unknown.join(", ")} ${unknown.length === 1 ? "is not a reply" : "are not replies"} on ${item.id}`,
      `run \`docket item show ${item.id}\` to see its replies`,
    );
  }
  const answering = Object.keys(entry.answers);

  if (entry.outcome === "blocked") {
    const reportId = writeReport(tx, who, binding.id, entry);
    answerReplies(
      tx,
      replies.filter((r) => r.state === "unanswered" && answering.includes(r.id)).map((r) => r.id),
      entry,
      reportId,
    );
    makeObligationDueNow(tx, binding.id);
    insertNotification(tx, {
      kind: "blocked",
      worker: who.worker,
      item: item.id,
      report: reportId,
      body: excerpt(entry.body),
      forHuman: entry.forHuman,
    });
    return { item: item.id, status: "pending", reportId };
  }

  // The item operation runs first: if it refuses, nothing below is written and the command rolls back.
  const op = applyItemOperation(operationFor(item.kind, entry.outcome), item, replies, {
    body: entry.body,
    answers: answering,
  });
  const reportId = writeReport(tx, who, binding.id, entry);
  answerReplies(tx, op.answeredReplies, entry, reportId);
  reviseItem(tx, item.id, { state: op.state, closingNote: op.closingNote });
  resolveBinding(tx, binding.id);
  cancelPendingReplyReviews(tx, { worker: binding.worker, binding: binding.id });
  resolveObligation(tx, binding.id, reportId);
  if (resolveDispatchIfDone(tx, binding.dispatch))
    cancelUndeliveredEnvelopes(tx, { worker: binding.worker, dispatch: binding.dispatch });
  insertNotification(tx, {
    kind: "outcome",
    worker: who.worker,
    item: item.id,
    report: reportId,
    body: excerpt(entry.body),
    forHuman: entry.forHuman,
  });
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
