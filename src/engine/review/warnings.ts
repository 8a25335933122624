// Warnings shown before judging or promoting a frozen patch: other workers' frozen patches touching the same files
// (graded same file / adjacent / contested) and parent files changed since this worker's base.
// A partner promoted since this worker began still collides: its card names that promoted deliverable.

import type { Worker } from "../../domain/workers/worker.js";
import type { ChangeSet, DeliverablePointer, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { gradeOverlap, preimagePaths, type OverlapFinding } from "../../domain/review/overlap.js";
import { promotionsSince } from "../../ledger/review/decisions.js";
import type { ParentChange, ParentQuery } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "./deliverables.js";
import { reviewFacts, type PeerPatch, type ReviewFacts } from "./review-facts.js";

export interface ReviewWarning {
  kind:
    | "overlap"
    | "parent-moved"
    | "parent-unknown"
    | "older-version"
    | "deliverable-invalid"
    | "deliverable-tampered"
    | "plan-coverage"
    | "base-moved"
    | "combine"
    | "checkout-changed"
    | "before-plan";
  text: string;
}

export interface OverlapWithPeer extends OverlapFinding {
  otherRef: string;
  otherTask: string;
  /** The promote decision when the other deliverable has already landed in the parent. */
  promotedBy?: string;
}

export interface ReviewWarnings {
  overlaps: OverlapWithPeer[];
  /** Undefined when it cannot be told (no base commit known to the parent repository). */
  parentChanges: ParentChange[] | undefined;
  warnings: ReviewWarning[];
}

const GRADE_LABEL: Record<OverlapFinding["grade"], string> = {
  "same-file": "same file",
  adjacent: "adjacent",
  contested: "contested",
};
const STATUS_LABEL: Record<string, string> = {
  M: "modified",
  A: "added",
  D: "deleted",
  T: "type changed",
  "?": "untracked",
};
const GRADE_RANK: Record<OverlapFinding["grade"], number> = { contested: 0, adjacent: 1, "same-file": 2 };
let workerOrder: Intl.Collator | undefined; // what localeCompare(b, "en", { numeric: true }) builds on every call, built once
const WORKER_SEQ = /^w([1-9][0-9]{0,14})$/;
/** Numeric order of worker ids; `w<N>` ids are compared as numbers without building a collator (ICU costs ~10 ms). */
const byWorker = (a: string, b: string): number => {
  const m = WORKER_SEQ.exec(a);
  const n = m && WORKER_SEQ.exec(b);
  if (m && n) return Number(m[1]) - Number(n[1]);
  return (workerOrder ??= new Intl.Collator("en", { numeric: true })).compare(a, b);
};

/** Other live workers of the same project whose current frozen patch is still pending and touches one of `paths`. */
function peerPatches(facts: ReviewFacts, me: Worker, paths: readonly string[]): PeerPatch[] {
  return facts.peersTouching(me.projectRoot, paths).filter((peer) => peer.row.id !== me.id);
}

/** Other workers' deliverables of the same project promoted since this worker began (so not in its base). */
function promotedPatches(
  ctx: EngineContext,
  facts: ReviewFacts,
  me: Worker,
  paths: readonly string[],
): { worker: string; task: string; ref: string; decision: string; patch: string }[] {
  const rows = promotionsSince(ctx.db, { projectRoot: me.projectRoot, exceptWorker: me.id, since: me.createdAt });
  // A promotion whose worker the ledger never saw edit one of these paths cannot overlap: its sidecar is not read.
  return rows
    .filter((r) => facts.mayHaveEdited(r.worker, paths))
    .flatMap((r) => {
      const read = facts.sidecar(r.worker, r.version);
      if (!read.ok || !read.deliverable.changeSet || read.deliverable.changeSet.patch === "") return [];
      return [
        { worker: r.worker, task: r.task, ref: r.ref, decision: r.decision, patch: read.deliverable.changeSet.patch },
      ];
    });
}

/** What the parent checkout is asked about one worker's frozen patch. */
export function parentQueryOf(worker: Worker, change: ChangeSet): ParentQuery {
  return { base: change.base || worker.base, baseHead: worker.baseHead, paths: change.files.map((f) => f.path) };
}

/** `facts` lets a run over many cards (the verdict queue) share what it read; one card may leave it out. */
export function resolveReviewWarnings(
  ctx: EngineContext,
  worker: Worker,
  pointer: DeliverablePointer,
  deliverable: WorkerDeliverable,
  facts: ReviewFacts = reviewFacts(ctx),
): ReviewWarnings {
  const warnings: ReviewWarning[] = [];
  const current = pointerOf(worker);
  if (current && current.version > pointer.version) {
    warnings.push({
      kind: "older-version",
      text: `this is v${pointer.version}; ${worker.id}'s current version is v${current.version}`,
    });
  }
  const change = deliverable.changeSet;
  if (!change || change.patch === "") return { overlaps: [], parentChanges: [], warnings };
  const mine = facts.ranges(pointer.ref, change.patch);
  const overlaps: OverlapWithPeer[] = [];
  for (const peer of peerPatches(facts, worker, preimagePaths(mine))) {
    for (const f of gradeOverlap(mine, peer.ranges, peer.row.id)) {
      overlaps.push({ ...f, otherRef: peer.pointer.ref, otherTask: peer.row.task });
    }
  }
  for (const landed of promotedPatches(ctx, facts, worker, preimagePaths(mine))) {
    for (const f of gradeOverlap(mine, facts.ranges(landed.ref, landed.patch), landed.worker)) {
      overlaps.push({ ...f, otherRef: landed.ref, otherTask: landed.task, promotedBy: landed.decision });
    }
  }
  overlaps.sort(
    (a, b) =>
      GRADE_RANK[a.grade] - GRADE_RANK[b.grade] ||
      byWorker(a.otherWorker, b.otherWorker) ||
      a.path.localeCompare(b.path),
  );
  for (const o of overlaps) {
    const landed = o.promotedBy ? `, already promoted (${o.promotedBy})` : "";
    warnings.push({
      kind: "overlap",
      text: `${GRADE_LABEL[o.grade]} ${o.otherWorker}${landed}: ${o.path} (${o.otherRef} · ${o.otherTask.slice(0, 40)})`,
    });
  }
  const parent = parentWarnings(
    () => facts.parentChanges(worker.projectRoot, parentQueryOf(worker, change)),
    worker.projectRoot,
    worker.id,
  );
  return { overlaps, parentChanges: parent.parentChanges, warnings: [...warnings, ...parent.warnings] };
}

/** Files among `paths` the parent checkout changed since `refs` (the base a frozen patch was made against), as warnings. */
export function parentChangeWarnings(
  ctx: EngineContext,
  root: string,
  refs: { base: string | null; baseHead: string | null },
  paths: string[],
  whose: string,
): { parentChanges: ParentChange[] | undefined; warnings: ReviewWarning[] } {
  return parentWarnings(() => ctx.git.parentChangesSince(root, refs, paths), root, whose);
}

function parentWarnings(
  ask: () => ParentChange[] | undefined,
  root: string,
  whose: string,
): { parentChanges: ParentChange[] | undefined; warnings: ReviewWarning[] } {
  let parentChanges: ParentChange[] | undefined;
  try {
    parentChanges = ask();
  } catch (error) {
    // The parent checkout could not be inspected (moved, not a repository): said as a warning, never skipped silently.
    return {
      parentChanges: undefined,
      warnings: [
        {
          kind: "parent-unknown",
          text: `could not check your checkout for changes: ${(error as Error).message.split("\n")[0]}`,
        },
      ],
    };
  }
  if (parentChanges === undefined) {
    return {
      parentChanges,
      warnings: [
        {
          kind: "parent-unknown",
          text: `cannot tell whether your checkout changed these files: ${whose}'s base is unknown to ${root}`,
        },
      ],
    };
  }
  if (parentChanges.length === 0) return { parentChanges, warnings: [] };
  return {
    parentChanges,
    warnings: [
      {
        kind: "parent-moved",
        text: `your checkout changed ${parentChanges.map((c) => `${c.path} (${STATUS_LABEL[c.status[0]!] ?? c.status})`).join(", ")} since ${whose}'s base · re-check before promoting`,
      },
    ],
  };
}
