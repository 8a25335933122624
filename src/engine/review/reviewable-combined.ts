// A combined version (`combined:w2+w3:<N>`) as a Reviewable: always named exactly, judged on its own, its patch never
// promoted with marker residue, and each source's workspace settled after its promotion (docs/decisions/authority.md).

import { versionNamedByRef, type CombinedVersionRef } from "../../domain/deliverables/refs.js";
import { refusal } from "../../domain/errors.js";
import { patchResidue } from "../../domain/review/combine.js";
import { workerTreeOf } from "../../domain/workers/worker-tree.js";
import { readDeliverable } from "../../files/workers/deliverables.js";
import { getWorker, updateWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { resolveCombined, sourcePatches, type CombinedTarget } from "./combined.js";
import type { Reviewable } from "./reviewable-shape.js";
import type { TargetGuards } from "./target.js";
import { parentChangeWarnings } from "./warnings.js";

export function combinedReviewable(ctx: EngineContext, ref: CombinedVersionRef, input: TargetGuards): Reviewable {
  const t = resolveCombined(ctx, ref, input.expectSha256);
  const cs = t.deliverable.changeSet;
  const noRevise = refusal(
    "combined-no-revise",
    `${t.pointer.ref} is a combined version: no worker publishes its next version; nothing was sent`,
    "reject it, or hand both sides to one worker with `docket combine <w> <w> --to <w>`",
  );
  const noUse = refusal(
    "combined-no-use",
    `${t.pointer.ref} is a combined version: its change set is promoted, never handed on as input; nothing changed`,
    "promote it instead, or use one of its sources' versions",
  );
  const pair = t.key.replace("+", " and ");
  return {
    kind: "combined",
    subject: t.key,
    author: t.key,
    pointer: t.pointer,
    path: t.path,
    sha256: t.sha256,
    changeSet: cs,
    evidenceRefs: [t.pointer.ref, ...t.deliverable.sources.map((s) => s.ref)],
    projectRoot: t.row.projectRoot,
    summary: t.deliverable.summary,
    body: t.deliverable.body,
    outcome: t.deliverable.outcome,
    combined: t,
    refuses: (verb) =>
      verb === "revise"
        ? noRevise
        : verb === "use"
          ? noUse
          : verb === "--version"
            ? versionNamedByRef("combined")
            : undefined,
    shown: () => [], // a combined version is always named by its exact ref
    assertStill: () => undefined, // frozen once recorded: no newer bytes can take its ref
    settle: () => undefined, // its sources were settled when they were closed as combined
    after: (verb) => [
      verb === "approve"
        ? `promote it with \`docket promote ${t.pointer.ref}\``
        : `the sources stay closed as combined; combine newer versions of ${pair} to try again`,
    ],
    promotion: combinedPromotion(ctx, t),
  };
}

/** How a combined version is promoted: its approval is recorded, marker residue refused, its sources settled. */
function combinedPromotion(ctx: EngineContext, t: CombinedTarget): Reviewable["promotion"] {
  const cs = t.deliverable.changeSet;
  const workers = t.deliverable.sources.map((s) => s.worker);
  const files = cs.files.map((f) => f.path);
  return {
    approval: { kind: "recorded" },
    instead: "reject it, and combine the two versions again",
    assertPromotable: () => {
      const residue = patchResidue(cs.patch, sourcePatches(ctx, t.deliverable));
      if (residue.length === 0) return;
      const where = residue.map((r) => r.path).join(", ");
      throw refusal(
        "conflict-markers",
        `${t.pointer.ref} holds conflict markers in ${where}; markers are never promoted, nothing changed`,
      );
    },
    warnings: () => {
      const { warnings } = parentChangeWarnings(
        ctx,
        t.row.projectRoot,
        { base: cs.base, baseHead: null },
        files,
        t.key,
      );
      return { warnings, needsConfirmation: warnings.length > 0 };
    },
    earlierApproved: () => [], // each combined version is judged on its own
    credited: workers,
    notes: [],
    settle: (tx) => {
      for (const w of workers) if (getWorker(tx.db, w)) updateWorker(tx, w, { reviewedAt: tx.now });
    },
    reset: () => ({
      workspace: "combined",
      notes: t.deliverable.sources.map((s) => settleSource(ctx, s.worker, s.version)),
    }),
    preface: [],
  };
}

/** A source's workspace is reset only when it still holds exactly its own frozen patch (later edits are kept). */
function settleSource(ctx: EngineContext, worker: string, version: number): string {
  const row = getWorker(ctx.db, worker);
  const read = readDeliverable(ctx.home, worker, version);
  const cs = read.ok ? read.deliverable.changeSet : null;
  if (row?.workspaceMode !== "isolated" || !cs) return `${worker}: no workspace of its own to reset`;
  try {
    if (!ctx.git.liveEqualsFrozen(workerTreeOf(row), cs.base, cs.patch)) {
      return `${worker} changed its workspace after ${cs.ref}; its workspace was left as it is`;
    }
    ctx.git.resetWorkspace(workerTreeOf(row), cs.base);
    return `${worker}'s workspace was reset to its base (its changes landed in the combined promotion)`;
  } catch (error) {
    // Best-effort: the promotion is recorded; the human reads why this workspace was left as it was.
    return `${worker}'s workspace was left as it is (${(error as Error).message.split("\n")[0]})`;
  }
}
