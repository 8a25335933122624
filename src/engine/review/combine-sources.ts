// Combine's sources: the two open worker versions it merges, checked before anything is made (each has a frozen patch,
// is not closed, and both are different workers of one project), and re-read unchanged when a resolution is frozen.

import { combinedKey, type WorkerVersionRef } from "../../domain/deliverables/refs.js";
import { workerRefOf } from "./deliverables.js";
import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { refusal, validationError } from "../../domain/errors.js";
import type { CombinationRow } from "../../ledger/review/combinations.js";
import type { MergeSource } from "../../substrate/git/combine-merge.js";
import type { EngineContext } from "../context.js";
import { closureOf, resolveReviewTarget, type ReviewTarget } from "./target.js";

export type CombineResult =
  | {
      outcome: "combined";
      combination: string;
      deliverable: DeliverablePointer;
      files: string[];
      summary: string;
      decisions: string[];
      notes: string[];
    }
  | {
      outcome: "conflicts";
      combination: string;
      scratch: string;
      contested: { path: string; kind: string; conflicts: number }[];
      summary: string;
      decisions: string[];
      notes: string[];
    }
  | { outcome: "handed-off"; worker: string; message: string; summary: string; decisions: string[]; notes: string[] };

export interface Source extends MergeSource {
  target: ReviewTarget;
  pointer: DeliverablePointer;
  sha256: string;
}

export function sourceOf(ctx: EngineContext, ref: WorkerVersionRef): Source {
  const t = resolveReviewTarget(ctx, ref);
  const cs = t.deliverable.changeSet;
  if (!cs || cs.patch === "")
    throw refusal("nothing-to-combine", `${t.pointer.ref} has no frozen patch; there is nothing to combine`);
  const closed = closureOf(ctx.db, t.pointer);
  if (closed) {
    const why =
      closed.verb === "promote"
        ? "is already promoted: its changes are in your checkout"
        : closed.verb === "reject"
          ? "was rejected"
          : "was already combined";
    throw refusal(
      "combine-source-closed",
      `${t.pointer.ref} ${why} (${closed.id}); nothing changed`,
      "combine two open versions; a worker whose base moved can be told with `docket tell <w> <text>`",
    );
  }
  return {
    worker: t.worker.id,
    task: t.worker.task,
    ref: t.pointer.ref,
    deliverable: t.deliverable,
    target: t,
    pointer: t.pointer,
    sha256: t.sha256,
  };
}

export function sourcesOf(ctx: EngineContext, input: [string, string]): [Source, Source] {
  const a = sourceOf(ctx, workerRefOf(input[0]));
  const b = sourceOf(ctx, workerRefOf(input[1]));
  if (a.worker === b.worker)
    throw validationError(
      "combine-same-worker",
      `both sides are ${a.worker}; Combine merges two different workers' change sets`,
    );
  if (a.target.worker.projectRoot !== b.target.worker.projectRoot) {
    throw refusal(
      "combine-other-project",
      `${a.worker} and ${b.worker} work on different projects ` +
        `(${a.target.worker.projectRoot}, ${b.target.worker.projectRoot}); nothing changed`,
    );
  }
  // The lower label is "ours" whatever order they were named in, so the same pair always merges the same way.
  return combinedKey(a.worker, b.worker).startsWith(`${a.worker}+`) ? [a, b] : [b, a];
}

/** The sources as recorded, re-read: each sidecar must still hold the bytes the merge read, and still be open. */
export function recordedSources(ctx: EngineContext, row: CombinationRow): [Source, Source] {
  const s = row.sources.map((r) => {
    const src = sourceOf(ctx, workerRefOf(r.ref));
    if (src.sha256 !== r.sha256)
      throw refusal(
        "combine-source-changed",
        `${r.ref} changed since the combine started ` +
          `(sha256 ${src.sha256.slice(0, 12)}, was ${r.sha256.slice(0, 12)}); nothing was frozen`,
        "drop it with `docket combine --abort` and combine again",
      );
    return src;
  });
  return [s[0]!, s[1]!];
}
