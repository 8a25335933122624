// The frozen worker deliverable version (sidecar `fleet/<id>/deliverables/v<N>.json`) and its identity.
// Immutable once claimed; a version number is never reused (docs/decisions/immutable-deliverables.md).

import type { Evidence } from "../work/report.js";

export const DELIVERABLE_SCHEMA_VERSION = 1;

export const DONE_OUTCOMES = ["completed", "findings", "proposal"] as const;
export type DoneOutcome = (typeof DONE_OUTCOMES)[number];

export interface DeliverablePointer {
  id: string;
  version: number;
  ref: string;
}

export interface ChangeSetFile {
  path: string;
  additions: number;
  deletions: number;
  binary?: boolean;
  /** A symbolic link (`120000`) or a gitlink (`160000`): not a file with text, whatever its one line says. */
  special?: { kind: "symlink" | "gitlink"; mode: string; target: string };
  /**
   * Text at the base, yet frozen as a git binary patch: the change as text, computed by Docket from the base blob and
   * the blob the patch makes (hunks only), so a reviewer sees what the binary section does.
   */
  decoded?: string;
}

export interface ChangeSet {
  ref: string;
  /** The worker's base commit the patch applies to. */
  base: string;
  files: ChangeSetFile[];
  stat: string;
  hunks: number;
  /** Binary-safe patch as `git apply` accepts it. */
  patch: string;
}

export interface SourceHandoff {
  sourceRef: string;
  sourceId: string;
  sourceVersion: number;
  sourceWorker?: string;
  sourceKind: "worker" | "stored" | "human";
  approvingDecisionId: string;
  useDecisionId: string;
  approvedAt: string;
  sidecarPath: string;
  /** True only for Use → Implement with a reviewed source (the plan gate was discharged). */
  planAuthorized: boolean;
}

const SOURCE_KINDS: readonly unknown[] = ["worker", "stored", "human"];

/** A parsed handoff record (a worker row's `source_handoff`, a sidecar's `sourceHandoff`) checked field by field. */
export function isSourceHandoff(v: unknown): v is SourceHandoff {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const h: Record<string, unknown> = { ...v };
  const text = (k: string) => typeof h[k] === "string";
  return (
    ["sourceRef", "sourceId", "approvingDecisionId", "useDecisionId", "approvedAt", "sidecarPath"].every(text) &&
    typeof h.sourceVersion === "number" &&
    SOURCE_KINDS.includes(h.sourceKind) &&
    typeof h.planAuthorized === "boolean" &&
    (h.sourceWorker === undefined || typeof h.sourceWorker === "string")
  );
}

export interface WorkerDeliverable {
  schemaVersion: 1;
  id: string;
  version: number;
  ref: string;
  createdAt: string;
  toolCallId: string;
  source: { workerId: string; task: string; kind: string; generation: number; model?: string; thinking?: string };
  outcome: DoneOutcome;
  summary: string;
  body: string;
  evidence: Evidence[];
  recommendations: string[];
  /** The per-item entries exactly as the worker sent them with this done. */
  items: { item: string; outcome: string; body: string }[];
  changeSet: ChangeSet | null;
  sourceHandoff?: SourceHandoff;
  /** The worker's answers to the review comments of the revision it worked on (absent when it gave none). */
  addressed?: AddressedComment[];
}

export interface AddressedComment {
  /** A review comment id (`cm3`). */
  comment: string;
  note: string;
}
