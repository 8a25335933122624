// One reviewable version, whatever its kind — a worker's version or a combined one — resolved once: its pointer, bytes,
// change set, whom decisions are recorded under, what a judgment cites, and the small per-kind hooks approve and reject run.

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { parseReviewableRef, parseSubject } from "../../domain/deliverables/refs.js";
import { validationError } from "../../domain/errors.js";
import type { Tx } from "../../ledger/core/runner.js";
import { requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { newestCombined, resolveCombined } from "./combined.js";
import { pointerOf } from "./deliverables.js";
import { assertShownBinding } from "./shown.js";
import { assertNotCombined, assertPointerUnchanged, evidenceRefsOf, olderNote, resolveReviewTarget, type TargetInput } from "./target.js";

export type JudgeVerb = "approve" | "reject";

export interface Reviewable {
  kind: "worker" | "combined";
  /** Whom its decisions are recorded under (and whose newest decision a card binds to): a worker id, or the pair key. */
  subject: string;
  pointer: DeliverablePointer;
  /** The sidecar read and the sha256 of its exact bytes (what a judgment records and an approval is checked against). */
  path: string;
  sha256: string;
  changeSet: ChangeSet | null;
  /** Refs a judge could see: the version, and its change set or its sources. */
  evidenceRefs: string[];
  /** Before the command: the lines to say about what the human was shown (refused when it was not this version). */
  shown(verb: JudgeVerb): string[];
  /** Inside the command, before anything is written: the version is still the one resolved and may take `verb`. */
  assertStill(tx: Tx, verb: JudgeVerb): void;
  /** Inside the command, after the decision row: what settles with the judgment. */
  settle(tx: Tx, verb: JudgeVerb): void;
  /** What to say after the judgment. */
  after(verb: JudgeVerb): string[];
}

/** `w3`, `w3:v2`, `worker-deliverable:w3:2` or `combined:w2+w3:1`, with the guards of TargetInput. */
export function resolveReviewable(ctx: EngineContext, input: TargetInput): Reviewable {
  return parseReviewableRef(input.target).kind === "combined" ? combinedReviewable(ctx, input) : workerReviewable(ctx, input);
}

function workerReviewable(ctx: EngineContext, input: TargetInput): Reviewable {
  const t = resolveReviewTarget(ctx, input);
  const current = t.pointer.ref === t.current.ref;
  const patchPending = Boolean(t.deliverable.changeSet && t.deliverable.changeSet.patch !== "");
  return {
    kind: "worker", subject: t.worker.id, pointer: t.pointer, path: t.path, sha256: t.sha256, changeSet: t.deliverable.changeSet ?? null, evidenceRefs: evidenceRefsOf(t),
    shown: (verb) => assertShownBinding(ctx, t, input, verb),
    assertStill: (tx, verb) => {
      if (!t.exact) assertPointerUnchanged(tx, t);
      if (verb === "approve") assertNotCombined(tx.db, t.pointer.ref);
    },
    // A patch still waiting for promotion keeps the worker in view; a patch-less version is settled by approval.
    settle: (tx, verb) => {
      if (current && (verb === "reject" || !patchPending)) updateWorker(tx, t.worker.id, { reviewedAt: tx.now });
    },
    after: (verb) => [...olderNote(t), ...(verb === "reject" ? [`${t.worker.id} was not told; use \`docket revise ${t.worker.id} <note>\` to ask for changes`] : [])],
  };
}

function combinedReviewable(ctx: EngineContext, input: TargetInput): Reviewable {
  const t = resolveCombined(ctx, input.target, input.expectSha256);
  return {
    kind: "combined", subject: t.key, pointer: t.pointer, path: t.path, sha256: t.sha256, changeSet: t.deliverable.changeSet,
    evidenceRefs: [t.pointer.ref, ...t.deliverable.sources.map((s) => s.ref)],
    shown: () => [], // a combined version is always named by its exact ref
    assertStill: () => undefined, // frozen once recorded: no newer bytes can take its ref
    settle: () => undefined, // its sources were settled when they were closed as combined
    after: (verb) => [verb === "approve" ? `promote it with \`docket promote ${t.pointer.ref}\`` : `the sources stay closed as combined; combine newer versions of ${t.key.replace("+", " and ")} to try again`],
  };
}

/** The subject's current version: a worker's committed pointer, or a pair's newest recorded combined version; null: none yet. */
export function currentOf(ctx: EngineContext, subject: string): DeliverablePointer | null {
  const s = parseSubject(subject);
  if (!s) throw validationError("bad-worker-id", `"${subject}" is not a worker or a combined pair`, "use w<N>, or combined:w<N>+w<M>:<K>");
  return s.kind === "combined" ? newestCombined(ctx, s.key) : (pointerOf(requireWorker(ctx.db, s.worker)) ?? null);
}
