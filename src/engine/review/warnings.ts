// Warnings shown before judging or promoting a frozen patch: other workers' frozen patches touching the same files
// (graded same file / adjacent / contested) and parent files changed since this worker's base (issue 5 §2, §4).

import type { ChangeSet, DeliverablePointer, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { gradeOverlap, preimagePaths, type OverlapFinding } from "../../domain/review/overlap.js";
import type { WorkerRow } from "../../ledger/workers/workers.js";
import type { ParentChange, ParentQuery } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "./deliverables.js";
import { reviewFacts, type PeerPatch, type ReviewFacts } from "./review-facts.js";

export interface ReviewWarning {
  kind: "overlap" | "parent-moved" | "parent-unknown" | "older-version" | "deliverable-invalid" | "plan-coverage";
  text: string;
}

export interface OverlapWithPeer extends OverlapFinding {
  otherRef: string;
  otherTask: string;
}

export interface ReviewWarnings {
  overlaps: OverlapWithPeer[];
  /** Undefined when it cannot be told (no base commit known to the parent repository). */
  parentChanges: ParentChange[] | undefined;
  warnings: ReviewWarning[];
}

const GRADE_LABEL: Record<OverlapFinding["grade"], string> = { "same-file": "same file", adjacent: "adjacent", contested: "contested" };
const STATUS_LABEL: Record<string, string> = { M: "modified", A: "added", D: "deleted", T: "type changed", "?": "untracked" };
const GRADE_RANK: Record<OverlapFinding["grade"], number> = { contested: 0, adjacent: 1, "same-file": 2 };
let workerOrder: Intl.Collator | undefined; // what localeCompare(b, "en", { numeric: true }) builds on every call, built once
const byWorker = (a: string, b: string): number => (workerOrder ??= new Intl.Collator("en", { numeric: true })).compare(a, b);

/** Other live workers of the same project whose current frozen patch is still pending and touches one of `paths`. */
function peerPatches(facts: ReviewFacts, me: WorkerRow, paths: readonly string[]): PeerPatch[] {
  return facts.peersTouching(me.project_root, paths).filter((peer) => peer.row.id !== me.id);
}

/** What the parent checkout is asked about one worker's frozen patch. */
export function parentQueryOf(worker: WorkerRow, change: ChangeSet): ParentQuery {
  return { base: change.base || worker.base, baseHead: worker.base_head, paths: change.files.map((f) => f.path) };
}

/** `facts` lets a run over many cards (the verdict queue) share what it read; one card may leave it out. */
export function resolveReviewWarnings(
  ctx: EngineContext,
  worker: WorkerRow,
  pointer: DeliverablePointer,
  deliverable: WorkerDeliverable,
  facts: ReviewFacts = reviewFacts(ctx),
): ReviewWarnings {
  const warnings: ReviewWarning[] = [];
  const current = pointerOf(worker);
  if (current && current.version > pointer.version) {
    warnings.push({ kind: "older-version", text: `this is v${pointer.version}; ${worker.id}'s current version is v${current.version}` });
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
  overlaps.sort((a, b) => GRADE_RANK[a.grade] - GRADE_RANK[b.grade] || byWorker(a.otherWorker, b.otherWorker) || a.path.localeCompare(b.path));
  for (const o of overlaps) {
    warnings.push({ kind: "overlap", text: `${GRADE_LABEL[o.grade]} ${o.otherWorker}: ${o.path} (${o.otherRef} · ${o.otherTask.slice(0, 40)})` });
  }
  let parentChanges: ParentChange[] | undefined;
  try {
    parentChanges = facts.parentChanges(worker.project_root, parentQueryOf(worker, change));
  } catch (error) {
    // The parent checkout could not be inspected (moved, not a repository): said as a warning, never skipped silently.
    warnings.push({ kind: "parent-unknown", text: `could not check the parent checkout for changes: ${(error as Error).message.split("\n")[0]}` });
    return { overlaps, parentChanges: undefined, warnings };
  }
  if (parentChanges === undefined) {
    warnings.push({ kind: "parent-unknown", text: `cannot tell whether the parent changed these files: ${worker.id}'s base is unknown to ${worker.project_root}` });
  } else if (parentChanges.length > 0) {
    warnings.push({
      kind: "parent-moved",
      text: `parent changed ${parentChanges.map((c) => `${c.path} (${STATUS_LABEL[c.status[0]!] ?? c.status})`).join(", ")} since ${worker.id}'s base · re-check before promoting`,
    });
  }
  return { overlaps, parentChanges, warnings };
}
