// The StoredDeliverable record (schemaVersion 2): identity, safe ids, refs, and validation naming every failing invariant.
// Approval is bound to the exact source version and never widened across versions or authorship kinds
// (docs/decisions/deliverable-store.md).

import {
  DONE_OUTCOMES,
  type ChangeSet,
  type DeliverablePointer,
  type DoneOutcome,
} from "../deliverables/deliverable.js";
import { EVIDENCE_KINDS, type Evidence } from "../work/report.js";
import { storedRef } from "../deliverables/refs.js";

export const STORED_SCHEMA_VERSION = 2;

/** A store directory name: what the anchor tool accepts too (case-insensitive), so its records stay readable. */
const STORED_ID = /^[a-z0-9][a-z0-9_-]{0,95}$/i;

export interface StoredRefEntry {
  ref: string;
  kind: string;
  title?: string;
}

export interface WorkerStoredSource {
  kind: "worker";
  workerId: string;
  /** The exact worker deliverable version this record copies. */
  deliverable: DeliverablePointer;
  task: string;
  createdAt: string;
  workerKind?: string;
  generation?: number;
  model?: string;
  thinking?: string;
  toolCallId?: string;
  cwd?: string;
  workerLabel?: string;
}

export interface HumanStoredSource {
  kind: "human";
  createdAt: string;
  /** Where the body was read from (a file path, `stdin`, or an anchor artifact ref). */
  authoredFrom?: string;
  cwd?: string;
}

export interface WorkerApproval {
  kind: "worker";
  decisionId: string;
  decidedAt: string;
  verb: string;
  actor: string;
  deliverable: DeliverablePointer;
}

export interface HumanApproval {
  kind: "human";
  /** Always `human-authorship:<id>`. */
  decisionId: string;
  decidedAt: string;
  reason: "human-authorship";
}

export interface ReviewNote {
  text: string;
  createdAt: string;
  decisionId?: string;
}

/** Where the source worker's own input came from (a reviewed handoff), carried forward unchanged. */
export interface StoredProvenance {
  sourceRef: string;
  approvingDecisionId: string;
  [field: string]: unknown;
}

export interface StoredDeliverable {
  schemaVersion: typeof STORED_SCHEMA_VERSION;
  id: string;
  version: number;
  ref: string;
  /** When the source was created (the worker's done, or the human's save). */
  createdAt: string;
  savedAt: string;
  body: string;
  summary: string;
  outcome: DoneOutcome;
  evidence: Evidence[];
  recommendations: string[];
  refs: StoredRefEntry[];
  items: { item: string; outcome: string; body: string }[];
  changeSet: ChangeSet | null;
  source: WorkerStoredSource | HumanStoredSource;
  reviewNotes: ReviewNote[];
  approval: WorkerApproval | HumanApproval;
  handoffProvenance: StoredProvenance | null;
}

export function isSafeStoredId(value: unknown): value is string {
  return typeof value === "string" && STORED_ID.test(value);
}

export const humanAuthorshipDecisionId = (id: string): string => `human-authorship:${id}`;

/** Worker-backed id: `worker-<cleaned worker id, ≤72>-<10 hex>`; the hash is computed by the caller (domain is pure). */
export function formatWorkerStoredId(workerId: string, hashHex: string): string {
  const cleaned =
    workerId
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 72) || "worker";
  return `worker-${cleaned}-${hashHex.toLowerCase().slice(0, 10)}`.slice(0, 96);
}

/** Human-authored id: `human-<timestamp digits>-<12 hex entropy>`; always version 1. */
export function formatHumanStoredId(nowIso: string, entropyHex: string): string {
  return `human-${nowIso.replace(/\D/g, "").slice(0, 17)}-${entropyHex.toLowerCase().slice(0, 12)}`;
}

/** The first non-empty line, collapsed and capped: the default summary of an authored body. */
export function resolveSummary(body: string, given?: string): string {
  const pick =
    given?.trim() ||
    body
      .split(/\r?\n/)
      .find((l) => l.trim() !== "")
      ?.trim() ||
    "Stored deliverable";
  const flat = pick.replace(/\s+/g, " ");
  return flat.length <= 200 ? flat : `${flat.slice(0, 199)}…`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === "string";
const isInstant = (v: unknown): boolean => typeof v === "string" && !Number.isNaN(Date.parse(v));
const isVersion = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 1;

function isPointer(v: unknown): v is DeliverablePointer {
  return isObject(v) && isText(v.id) && isVersion(v.version) && isText(v.ref);
}

const samePointer = (a: DeliverablePointer, b: DeliverablePointer): boolean =>
  a.id === b.id && a.version === b.version && a.ref === b.ref;

/**
 * Every invariant a current-schema record breaks, by name (empty = valid). `expected` is what the file's
 * place in the store says the record must be (its directory and `v<N>.json` name).
 */
export function storedDeliverableIssues(value: unknown, expected?: { id: string; version: number }): string[] {
  if (!isObject(value)) return ["record-is-object"];
  const r = value;
  const issues: string[] = [];
  const check = (ok: boolean, name: string) => {
    if (!ok) issues.push(name);
  };
  check(r.schemaVersion === STORED_SCHEMA_VERSION, "schemaVersion");
  check(isSafeStoredId(r.id), "id-safe");
  check(isVersion(r.version), "version");
  check(
    isText(r.ref) && isSafeStoredId(r.id) && isVersion(r.version) && r.ref === storedRef(r.id, r.version),
    "ref-matches-id-version",
  );
  if (expected) {
    check(r.id === expected.id, "id-matches-directory");
    check(r.version === expected.version, "version-matches-file");
  }
  check(isInstant(r.createdAt), "createdAt");
  check(isInstant(r.savedAt), "savedAt");
  check(isText(r.body) && r.body.trim() !== "", "body-non-empty");
  check(isText(r.summary), "summary");
  check((DONE_OUTCOMES as readonly unknown[]).includes(r.outcome), "outcome");
  check(
    Array.isArray(r.evidence) &&
      r.evidence.every((e) => isObject(e) && (EVIDENCE_KINDS as readonly unknown[]).includes(e.kind) && isText(e.text)),
    "evidence",
  );
  check(Array.isArray(r.recommendations) && r.recommendations.every(isText), "recommendations");
  check(Array.isArray(r.refs) && r.refs.every((e) => isObject(e) && isText(e.ref) && isText(e.kind)), "refs");
  check(
    Array.isArray(r.items) &&
      r.items.every((e) => isObject(e) && isText(e.item) && isText(e.outcome) && isText(e.body)),
    "items",
  );
  check(
    r.changeSet === null ||
      (isObject(r.changeSet) &&
        isText(r.changeSet.patch) &&
        Array.isArray(r.changeSet.files) &&
        isText(r.changeSet.ref)),
    "changeSet",
  );
  check(
    Array.isArray(r.reviewNotes) && r.reviewNotes.every((n) => isObject(n) && isText(n.text) && isText(n.createdAt)),
    "reviewNotes",
  );
  check(
    r.handoffProvenance === null ||
      (isObject(r.handoffProvenance) &&
        isText(r.handoffProvenance.sourceRef) &&
        isText(r.handoffProvenance.approvingDecisionId)),
    "handoffProvenance",
  );
  issues.push(...sourceAndApprovalIssues(r));
  return issues;
}

function sourceAndApprovalIssues(r: Record<string, unknown>): string[] {
  const issues: string[] = [];
  const source = r.source;
  const approval = r.approval;
  if (!isObject(source) || (source.kind !== "worker" && source.kind !== "human")) return ["source.kind"];
  if (!isObject(approval)) return ["approval"];
  if (source.kind === "worker") {
    if (!isText(source.workerId) || source.workerId === "") issues.push("source.workerId");
    if (!isText(source.task)) issues.push("source.task");
    if (!isPointer(source.deliverable)) return [...issues, "source.deliverable"];
    if (!(isText(r.id) && r.id.toLowerCase().startsWith("worker-"))) issues.push("id-matches-worker");
    if (r.version !== source.deliverable.version) issues.push("version-matches-source-deliverable");
    if (approval.kind !== "worker") return [...issues, "approval.kind"];
    if (!isText(approval.decisionId) || approval.decisionId === "") issues.push("approval.decisionId");
    if (!isInstant(approval.decidedAt)) issues.push("approval.decidedAt");
    if (!isPointer(approval.deliverable) || !samePointer(approval.deliverable, source.deliverable))
      issues.push("approval.deliverable-matches-source");
    return issues;
  }
  const idOk = isText(r.id) && /^(human|parent)-/i.test(r.id);
  if (!idOk) issues.push("id-for-human-source");
  if (r.version !== 1) issues.push("version-for-human-source");
  if (approval.kind !== "human") return [...issues, "approval.kind"];
  if (!isText(r.id) || approval.decisionId !== humanAuthorshipDecisionId(r.id)) issues.push("approval.decisionId");
  if (approval.reason !== "human-authorship") issues.push("approval.reason");
  if (!isInstant(approval.decidedAt)) issues.push("approval.decidedAt");
  return issues;
}
