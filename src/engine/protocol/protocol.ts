// The worker protocol's four engine calls — todos, wait, done, fail — each fenced by generation inside its command.
// done freezes one immutable deliverable version before the worker becomes ready
// (docs/decisions/immutable-deliverables.md, docs/decisions/worker-protocol.md).

import { changeSetRef, deliverableId, deliverableRef } from "../../domain/deliverables/refs.js";
import { placeOf } from "../places/place.js";
import type { Worker } from "../../domain/workers/worker.js";
import { randomUUID } from "node:crypto";
import {
  DONE_OUTCOMES,
  type ChangeSet,
  type DeliverablePointer,
  type DoneOutcome,
  type WorkerDeliverable,
  type AddressedComment,
} from "../../domain/deliverables/deliverable.js";
import { checkAddressed } from "../../domain/review/addressed.js";
import { refusal, validationError } from "../../domain/errors.js";
import { idempotencyKey, optionalKey } from "../../domain/idempotency.js";
import {
  EVIDENCE_KINDS,
  isEvidenceKind,
  MAX_EVIDENCE,
  tooMuchEvidence,
  type Evidence,
  type ReportEntry,
  type ReportEntryInput,
} from "../../domain/work/report.js";
import { collapseText, resolveTodos, type Todo, type TodoInput } from "../../domain/workers/todos.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { transition } from "../../domain/workers/lifecycle.js";
import {
  claimDeliverable,
  findDeliverableByToolCall,
  listDeliverableVersions,
  readDeliverable,
} from "../../files/workers/deliverables.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import { readFence, storedResult } from "../../ledger/workers/protocol.js";
import { dropOpenQuestions, insertQuestion } from "../../ledger/workers/questions.js";
import type { CommandStep, StepOutcome } from "../../ledger/core/runner.js";
import { applyLifecycle, lifecycleRowOf, updateWorker } from "../../ledger/workers/workers.js";
import { recordTouchedPaths } from "../../ledger/workers/touched-paths.js";
import { markVersion } from "../../ledger/workers/version-marks.js";
import type { EngineContext } from "../context.js";
import { checkEntries, itemResults, reportStep, type ReportEntryResult } from "./report.js";
import { fencedStep, runFenced } from "./fenced.js";
import { workerTreeOf } from "../../domain/workers/worker-tree.js";
import { snapshotGate } from "../workers/kind-integrity.js";

/** Evidence gathered after a call committed: its failure never undoes or refuses the call. */
function bestEffort(fn: () => void): void {
  try {
    fn();
  } catch {
    // git could not read the workspace (removed meanwhile): the card then simply has no such warning
  }
}

export const MAX_CALL_ID = 200;
export const MAX_RECOMMENDATIONS = 100;
export const MAX_OPTIONS = 9;

// ── todos ────────────────────────────────────────────────────────────────────────────────────────────────

export interface TodosResult {
  todos: Todo[];
  dropped: number;
}

/** Replaces the worker's progress board. Informational only: it never gates done. */
export function todos(
  ctx: EngineContext,
  who: WorkerIdentity,
  items: readonly TodoInput[],
  options: { callId?: string } = {},
): TodosResult {
  const resolved = resolveTodos(items);
  const key = optionalKey({
    tool: "todos",
    worker: who.worker,
    callId: options.callId ? checkCallId(options.callId) : undefined,
  });
  return runFenced(ctx, { command: "protocol.todos", who, request: { who, todos: resolved.todos }, key }, (tx) => {
    updateWorker(tx, who.worker, { todos: resolved.todos });
    return resolved;
  });
}

// ── wait ─────────────────────────────────────────────────────────────────────────────────────────────────

export interface WaitInput {
  question: string;
  options?: string[];
  recommend?: string;
  risk?: string;
  blocked?: { item: string; body: string }[];
  callId?: string;
}

export interface WaitResult {
  question: string;
  state: "needs_input";
  blocked: ReportEntryResult[];
}

/**
 * One question for the human → needs_input; blocked items go through the report path as `blocked`. The question
 * and every blocked entry commit together or not at all: a refused entry refuses the call and asks nothing.
 */
export function wait(ctx: EngineContext, who: WorkerIdentity, input: WaitInput): WaitResult {
  const text = typeof input.question === "string" ? input.question.trim() : "";
  if (text === "")
    throw validationError("question-empty", "docket_wait needs a question: say what you need the human to decide");
  const options = (input.options ?? []).map((o) => String(o).trim()).filter((o) => o !== "");
  if (options.length > MAX_OPTIONS)
    throw validationError(
      "too-many-options",
      `docket_wait takes at most ${MAX_OPTIONS} options; got ${options.length}. Ask one question with fewer options`,
    );
  const recommend = optionalText(input.recommend);
  const risk = optionalText(input.risk);
  const blockedInput = input.blocked ?? [];
  if (!Array.isArray(blockedInput)) throw validationError("blocked-invalid", "blocked must be a list of {item, body}");
  const callId = input.callId === undefined ? undefined : checkCallId(input.callId);
  const preface = "docket_wait asked nothing — ";
  const blocked = checkEntries(
    blockedInput.map((b) => ({ item: b?.item, outcome: "blocked", body: b?.body })),
    preface,
  );
  const request = { who, text, options, recommend, risk };
  const ask = fencedStep<unknown>(
    { command: "protocol.wait", who, request, key: optionalKey({ tool: "wait", worker: who.worker, callId }) },
    (tx, row) => {
      const id = insertQuestion(tx, { worker: who.worker, generation: who.generation, text, options, recommend, risk });
      applyLifecycle(tx, who.worker, transition(lifecycleRowOf(row), { kind: "asked" }, tx.now));
      insertNotification(tx, {
        kind: "question",
        worker: who.worker,
        body: text,
        forHuman: [
          ...options.map((o, i) => `${i + 1}) ${o}`),
          ...(recommend ? [`recommended: ${recommend}`] : []),
          ...(risk ? [`risk: ${risk}`] : []),
        ],
      });
      return { question: id };
    },
  );
  const steps = blocked.map((entry) =>
    reportStep(who, entry, optionalKey({ tool: "wait", worker: who.worker, callId, item: entry.item })),
  );
  const batch = ctx.commands.runAll<unknown>([ask, ...steps]);
  const asked = batch.outcomes[0]!;
  if (!asked.ok) throw asked.error;
  bestEffort(() => snapshotGate(ctx, who.worker, "asked")); // the card flags files changed before the gate was discharged
  const results = itemResults(blocked, batch.outcomes.slice(1) as StepOutcome<ReportEntryResult>[], preface);
  return { question: (asked.result as { question: string }).question, state: "needs_input", blocked: results };
}

// ── fail ─────────────────────────────────────────────────────────────────────────────────────────────────

export function fail(
  ctx: EngineContext,
  who: WorkerIdentity,
  input: { reason: string; callId?: string },
): { state: "failed"; reason: string } {
  const reason = typeof input.reason === "string" ? input.reason.trim() : "";
  if (reason === "") throw validationError("reason-empty", "docket_fail needs a reason: say what stopped you");
  const key = optionalKey({
    tool: "fail",
    worker: who.worker,
    callId: input.callId ? checkCallId(input.callId) : undefined,
  });
  return runFenced(ctx, { command: "protocol.fail", who, request: { who, reason }, key }, (tx, row) => {
    applyLifecycle(tx, who.worker, transition(lifecycleRowOf(row), { kind: "gave-up", reason }, tx.now));
    insertNotification(tx, { kind: "failed", worker: who.worker, body: reason });
    return { state: "failed" as const, reason };
  });
}

// ── done ─────────────────────────────────────────────────────────────────────────────────────────────────

export interface DoneInput {
  /** The tool-call id (pi) or `--call-id` (CLI); a fresh one when absent. Same id → same version. */
  callId?: string;
  /** The full text of the assistant message that contains the call, or the CLI's body; stored byte-exact. */
  body: string;
  outcome: string;
  summary?: string;
  evidence?: Evidence[];
  recommendations?: string[];
  items?: ReportEntryInput[];
  /** Answers to the review comments of the revision this version responds to. */
  addressed?: AddressedComment[];
}

export interface DoneResult {
  deliverable: DeliverablePointer;
  items: ReportEntryResult[];
}

export interface CheckedDone {
  callId: string;
  body: string;
  outcome: DoneOutcome;
  summary: string;
  evidence: Evidence[];
  recommendations: string[];
  items: ReportEntry[];
  addressed: AddressedComment[];
}

/**
 * Publishes one deliverable version together with its item reports. Order: validate every field and entry; replay
 * a committed call; fence; a dry run of the item reports (a refused entry refuses the call before any file is
 * written); find an orphan sidecar of this call (crash repair) or capture + claim the next free version; then one
 * transaction points the worker at it (→ ready) and records every item under `done/<worker>/<callId>/<item>`.
 */
export function done(ctx: EngineContext, who: WorkerIdentity, input: DoneInput): DoneResult {
  const plan = planDone(who, input);
  const prior = priorVersion(ctx, who, plan);
  const pointer =
    "pointer" in prior ? prior.pointer : freezeVersion(ctx, prior.row, who, plan, captureFor(ctx, prior.row));
  return publishDone(ctx, who, plan, pointer);
}

/** A done checked and keyed, before anything is read or written: the same plan serves every phase of one call. */
export interface DonePlan {
  d: CheckedDone;
  key: string;
  itemSteps: CommandStep<ReportEntryResult>[];
}

export function planDone(who: WorkerIdentity, input: DoneInput): DonePlan {
  const d = checkDone(input);
  const key = idempotencyKey({ tool: "done", worker: who.worker, callId: d.callId });
  const itemSteps = d.items.map((entry) =>
    reportStep(who, entry, idempotencyKey({ tool: "done", worker: who.worker, callId: d.callId, item: entry.item })),
  );
  return { d, key, itemSteps };
}

/**
 * The version this call already has (its committed result, or the orphan sidecar of a crash before its command);
 * otherwise the fenced worker row a new version is captured for, once the item reports passed a dry run.
 */
export function priorVersion(
  ctx: EngineContext,
  who: WorkerIdentity,
  plan: DonePlan,
): { pointer: DeliverablePointer } | { row: Worker } {
  const stored = storedResult<DeliverablePointer>(ctx.db, plan.key);
  if (stored) return { pointer: stored };
  // A replaced process must not claim a version: check the fence before any file is written (and again below).
  const row = readFence(ctx.db, who);
  if (plan.itemSteps.length > 0)
    itemResults(plan.d.items, ctx.commands.runAll(plan.itemSteps, { dryRun: true }).outcomes, DONE_PREFACE);
  const orphan = findDeliverableByToolCall(ctx.home, who.worker, plan.d.callId);
  if (orphan?.ok) {
    const version = orphan.deliverable.version;
    return { pointer: { id: deliverableId(who.worker), version, ref: deliverableRef(who.worker, version) } };
  }
  return { row };
}

/** One transaction: the worker points at its version (→ ready) and every item of the call is recorded. */
export function publishDone(
  ctx: EngineContext,
  who: WorkerIdentity,
  plan: DonePlan,
  pointer: DeliverablePointer,
): DoneResult {
  const batch = ctx.commands.runAll<unknown>([publishStep(who, plan.d, pointer, plan.key, ctx), ...plan.itemSteps]);
  const published = batch.outcomes[0]!;
  if (!published.ok) throw published.error;
  const items = itemResults(plan.d.items, batch.outcomes.slice(1) as StepOutcome<ReportEntryResult>[], DONE_PREFACE);
  return { deliverable: published.result as DeliverablePointer, items };
}

const DONE_PREFACE = "docket_done published nothing — ";

/** The command step moving the worker to its new version (→ ready), announced with the sidecar's own summary and outcome. */
function publishStep(
  who: WorkerIdentity,
  d: CheckedDone,
  pointer: DeliverablePointer,
  key: string,
  ctx: EngineContext,
): CommandStep<unknown> {
  const frozen = readDeliverable(ctx.home, who.worker, pointer.version);
  const summary = frozen.ok ? frozen.deliverable.summary : d.summary;
  const outcome = frozen.ok ? frozen.deliverable.outcome : d.outcome;
  const edited = frozen.ok
    ? (frozen.deliverable.changeSet?.files ?? []).map((f) => ({ path: f.path, how: "edit" as const }))
    : [];
  return fencedStep<unknown>(
    { command: "protocol.done", who, request: { who, callId: d.callId }, key },
    (tx, current) => {
      // A later version may already be current (this call crashed before a newer one committed): never move back.
      if (current.deliverableVersion === null || current.deliverableVersion < pointer.version) {
        applyLifecycle(tx, who.worker, transition(lifecycleRowOf(current), { kind: "published" }, tx.now), {
          deliverableId: pointer.id,
          deliverableVersion: pointer.version,
          deliverableRef: pointer.ref,
          summary,
          outcome,
        });
        dropOpenQuestions(tx, who.worker);
        insertNotification(tx, {
          kind: "ready",
          worker: who.worker,
          ref: pointer.ref,
          body: `${pointer.ref} (${outcome}): ${summary}`,
        });
        markVersion(tx, who.worker, pointer.version);
      }
      // The frozen files are what this worker edited, whichever door it spoke through (broadcast, base moved).
      recordTouchedPaths(tx, who.worker, edited);
      return pointer;
    },
  );
}

/** Claims the next never-used version number for the captured change set; returns the version's pointer. */
export function freezeVersion(
  ctx: EngineContext,
  row: Worker,
  who: WorkerIdentity,
  plan: DonePlan,
  changeSet: ChangeSet | null,
): DeliverablePointer {
  const { d } = plan;
  let version = Math.max(0, row.deliverableVersion ?? 0, ...listDeliverableVersions(ctx.home, who.worker)) + 1;
  for (let attempt = 0; attempt < 1000; attempt++, version++) {
    const deliverable: WorkerDeliverable = {
      schemaVersion: 1,
      id: deliverableId(who.worker),
      version,
      ref: deliverableRef(who.worker, version),
      createdAt: ctx.clock.now(),
      toolCallId: d.callId,
      source: {
        workerId: who.worker,
        task: row.task,
        kind: row.kind,
        generation: who.generation,
        ...(row.modelInEffect ? { model: row.modelInEffect } : {}),
        ...(row.thinkingInEffect ? { thinking: row.thinkingInEffect } : {}),
      },
      outcome: d.outcome,
      summary: d.summary,
      body: d.body,
      evidence: d.evidence,
      recommendations: d.recommendations,
      items: d.items.map((i) => ({ item: i.item, outcome: i.outcome, body: i.body })),
      changeSet: changeSet && { ...changeSet, ref: changeSetRef(who.worker, version) },
      // Handoff provenance travels with every version the worker publishes.
      ...(row.sourceHandoff ? { sourceHandoff: row.sourceHandoff } : {}),
      ...(d.addressed.length > 0 ? { addressed: d.addressed } : {}),
    };
    if (claimDeliverable(ctx.home, who.worker, version, deliverable))
      return { id: deliverableId(who.worker), version, ref: deliverableRef(who.worker, version) };
  }
  throw refusal(
    "version-claim-failed",
    `could not claim a deliverable version for ${who.worker} after 1000 attempts`,
    `check ${ctx.home.workerDir(who.worker)}/deliverables for stray files`,
  );
}

type CaptureChangeSetInput = Parameters<EngineContext["git"]["captureChangeSet"]>[0];

/** What a capture of this worker reads: its tree and base, under the project's change-set cap; null: none to take. */
export function captureInput(ctx: EngineContext, row: Worker): CaptureChangeSetInput | null {
  if (row.workspaceMode === "shared") return null; // a read-only worker shares the parent's checkout: it has no change set of its own
  const base = row.base ?? row.baseHead;
  if (!base)
    throw refusal(
      "no-base",
      `${row.id} has no recorded base commit, so its change set cannot be frozen`,
      "respawn the worker",
    );
  const ref = changeSetRef(row.id, (row.deliverableVersion ?? 0) + 1); // the claimed version's ref replaces it
  return { tree: workerTreeOf(row), base, ref, maxPatchBytes: ctx.config().door.changeSetBytes };
}

function captureFor(ctx: EngineContext, row: Worker): ChangeSet | null {
  const input = captureInput(ctx, row);
  if (!input) return null;
  // A worker on a host: its workspace's bytes come home over ssh and get the same checks as a local capture.
  return placeOf(ctx, row).capture(row, input);
}

function checkDone(input: DoneInput): CheckedDone {
  if (!(DONE_OUTCOMES as readonly string[]).includes(input.outcome)) {
    throw validationError(
      "done-outcome-invalid",
      `outcome ${JSON.stringify(input.outcome ?? null)} is not one of ${DONE_OUTCOMES.join(", ")}; call docket_done again with one of them (per-item words done/released/abandoned/blocked go in items[].outcome)`,
    );
  }
  if (typeof input.body !== "string") throw validationError("body-invalid", "the deliverable body must be text");
  const body = input.body;
  const summary =
    typeof input.summary === "string" && input.summary.trim() !== ""
      ? collapseText(input.summary, 500)
      : firstLine(body);
  if (summary === "") {
    throw validationError(
      "done-empty",
      "docket_done needs the deliverable: write the full result as text in the same message as the docket_done call, and give a summary",
    );
  }
  const evidence = (input.evidence ?? []).map((e) => {
    if (!isEvidenceKind(e?.kind) || typeof e.text !== "string" || e.text.trim() === "") {
      throw validationError(
        "evidence-invalid",
        `evidence must be {kind: ${EVIDENCE_KINDS.join("|")}, text}; got ${JSON.stringify(e)}`,
      );
    }
    return { kind: e.kind, text: e.text.trim() };
  });
  if (evidence.length > MAX_EVIDENCE) throw tooMuchEvidence(evidence.length);
  const recommendations = (input.recommendations ?? []).map((r) => String(r).trim()).filter((r) => r !== "");
  if (recommendations.length > MAX_RECOMMENDATIONS)
    throw validationError(
      "recommendations-invalid",
      `at most ${MAX_RECOMMENDATIONS} recommendations; got ${recommendations.length}`,
    );
  const items = checkEntries(input.items ?? [], DONE_PREFACE);
  const callId = input.callId === undefined || input.callId === "" ? `call-${randomUUID()}` : checkCallId(input.callId);
  const addressed = checkAddressed(input.addressed, DONE_PREFACE);
  return { callId, body, outcome: input.outcome as DoneOutcome, summary, evidence, recommendations, items, addressed };
}

export function checkCallId(value: string): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > MAX_CALL_ID || /[\u0000-\u001f]/.test(value)) {
    throw validationError("bad-call-id", `call id must be 1–${MAX_CALL_ID} printable characters`);
  }
  return value;
}

function firstLine(body: string): string {
  const line = body.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  return collapseText(line.replace(/^#+\s*/, ""), 200);
}

function optionalText(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
