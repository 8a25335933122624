// A stored record as input to Use → Parent / Worker / Implement: its exact body, ref, carried approval and provenance.
// The approval travels inside the record, its bytes pinned by the ledger; legacy bundles are never usable for a
// reviewed handoff (docs/decisions/deliverable-store.md).

import type { StoreName } from "../../domain/deliverables/refs.js";
import { refusal } from "../../domain/errors.js";
import type { StoredDeliverable } from "../../domain/store/stored-deliverable.js";
import type { EngineContext } from "../context.js";
import { readStoredTarget, resolveStoreTarget } from "../store/target.js";

export interface StoredUseApproval {
  kind: "worker" | "human";
  decisionId: string;
  decidedAt: string;
}

/** Provenance for the new worker's `source_handoff` (the use decision id is added by the caller). */
export interface StoredUseProvenance {
  sourceRef: string;
  sourceId: string;
  sourceVersion: number;
  sourceKind: "stored";
  sourceWorker?: string;
  approvingDecisionId: string;
  approvedAt: string;
}

export interface StoredForUse {
  ref: string;
  body: string;
  approval: StoredUseApproval;
  provenance: StoredUseProvenance;
  record: StoredDeliverable;
  /** The record's file and the sha256 of its bytes, verified against the ledger's pin when read. */
  path: string;
  sha256: string;
}

/**
 * Resolves a stored ref (or the store name a command parsed) for Use (or a promotion, a diff); refuses legacy bundles — in `legacy`'s words when given —
 * and records this build cannot load.
 */
export function storedForUse(
  ctx: EngineContext,
  ref: string | StoreName,
  legacy?: (ref: string) => Error,
): StoredForUse {
  const target = resolveStoreTarget(ctx, ref);
  if (target.kind === "legacy") {
    if (legacy) throw legacy(target.ref);
    throw refusal(
      "legacy-not-usable",
      `${target.ref} is a legacy checkpoint bundle; bundles cannot be used for a reviewed handoff`,
      "preview it, or save its text as a new record with `docket save --author`",
    );
  }
  const { record, path, sha256 } = readStoredTarget(ctx, target);
  const approval: StoredUseApproval = {
    kind: record.approval.kind,
    decisionId: record.approval.decisionId,
    decidedAt: record.approval.decidedAt,
  };
  const provenance: StoredUseProvenance = {
    sourceRef: record.ref,
    sourceId: record.id,
    sourceVersion: record.version,
    sourceKind: "stored",
    ...(record.source.kind === "worker" ? { sourceWorker: record.source.workerId } : {}),
    approvingDecisionId: record.approval.decisionId,
    approvedAt: record.approval.decidedAt,
  };
  return { ref: record.ref, body: record.body, approval, provenance, record, path, sha256 };
}
