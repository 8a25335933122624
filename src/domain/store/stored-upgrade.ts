// The read-time upgrade chain of stored records, and the classification of what a file holds: ok or unsupported.
// Schema drift is not corruption: an older record is upgraded step by step; one we cannot load stays visible
// (docs/decisions/deliverable-store.md).

import { isStoredRecordRef } from "../deliverables/refs.js";
import { DONE_OUTCOMES } from "../deliverables/deliverable.js";
import { EVIDENCE_KINDS, type Evidence } from "../work/report.js";
import { STORED_SCHEMA_VERSION, storedDeliverableIssues, type StoredDeliverable } from "./stored-deliverable.js";

export type UnsupportedReason = "newer-schema" | "no-upgrade-path" | "invalid" | "corrupt" | "symlink";

export type StoredClassification =
  | { status: "ok"; record: StoredDeliverable; upgradedFrom?: number }
  | { status: "unsupported"; reason: UnsupportedReason; detail: string };

type Json = Record<string, unknown>;

/** One named step: a record of schema `from` becomes a record of schema `from + 1`. Pure, never throws. */
export interface UpgradeStep {
  from: number;
  name: string;
  upgrade(record: Json): Json;
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);
const optionalText = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function upgradeEvidence(value: unknown): Evidence[] {
  return list(value).flatMap((e): Evidence[] => {
    if (typeof e === "string") return e.trim() === "" ? [] : [{ kind: "note", text: e }];
    if (!isObject(e)) return [];
    const body = text(e.text, text(e.summary, text(e.value, JSON.stringify(e))));
    const kind = (EVIDENCE_KINDS as readonly unknown[]).includes(e.kind) ? (e.kind as Evidence["kind"]) : "note";
    return [{ kind, text: body }];
  });
}

function upgradePointer(v: unknown): unknown {
  return isObject(v) ? { id: v.id, version: v.version, ref: v.ref } : v;
}

function upgradeChangeSet(v: unknown): unknown {
  if (!isObject(v)) return null;
  return {
    ref: text(v.ref),
    base: text(v.base), // the anchor did not record the base commit; "" means unknown
    files: list(v.files)
      .filter(isObject)
      .map((f) => ({
        path: text(f.path),
        additions: Number(f.additions ?? 0) || 0,
        deletions: Number(f.deletions ?? 0) || 0,
      })),
    stat: text(v.stat),
    hunks: typeof v.hunkCount === "number" ? v.hunkCount : typeof v.hunks === "number" ? v.hunks : 0,
    patch: text(v.patch),
  };
}

function upgradeProvenance(v: unknown): unknown {
  if (!isObject(v)) return null;
  const sourceRef = text(v.sourceRef);
  const kind = isStoredRecordRef(sourceRef) ? "stored" : v.sourceKind === "parent" ? "human" : "worker";
  return {
    ...v,
    sourceRef,
    sourceId: text(v.sourceDeliverableId, text(v.sourceId)),
    sourceVersion: v.sourceVersion,
    sourceWorker: optionalText(v.sourceWorkerId) ?? optionalText(v.sourceWorker),
    sourceKind: kind,
    approvingDecisionId: text(v.approvingDecisionId),
  };
}

/** The anchor tool's schema 1 (`/docket save` in pi-docket) → our schema 2. */
const anchorToV2: UpgradeStep = {
  from: 1,
  name: "pi-docket-v1-to-v2",
  upgrade(r) {
    const s = isObject(r.source) ? r.source : {};
    const a = isObject(r.approval) ? r.approval : {};
    const worker = s.kind === "worker";
    const source = worker
      ? {
          kind: "worker",
          workerId: s.workerId,
          deliverable: upgradePointer(s.workerDeliverable ?? s.deliverable),
          task: text(s.task),
          createdAt: text(s.createdAt, text(r.createdAt)),
          generation: s.workerGeneration,
          model: optionalText(s.model),
          thinking: optionalText(s.thinking),
          cwd: optionalText(s.cwd),
          workerLabel: optionalText(s.workerLabel),
        }
      : {
          kind: s.kind === "parent" || s.kind === "human" ? "human" : s.kind,
          createdAt: text(s.createdAt, text(r.createdAt)),
          cwd: optionalText(s.cwd),
          authoredFrom: isObject(s.selectedArtifact) ? optionalText(s.selectedArtifact.ref) : undefined,
        };
    const approval =
      a.kind === "worker"
        ? {
            kind: "worker",
            decisionId: a.decisionId,
            decidedAt: a.decidedAt,
            verb: a.verdict === "accept" || a.verdict === undefined ? "approve" : a.verdict,
            actor: "human",
            deliverable: upgradePointer(a.workerDeliverable ?? a.deliverable),
          }
        : a.kind === "human"
          ? { kind: "human", decisionId: a.decisionId, decidedAt: a.decidedAt, reason: "human-authorship" }
          : a;
    return {
      schemaVersion: 2,
      id: r.id,
      version: r.version,
      ref: r.ref,
      createdAt: r.createdAt,
      savedAt: r.savedAt,
      body: r.body,
      summary: text(r.summary),
      outcome: (DONE_OUTCOMES as readonly unknown[]).includes(r.outcome)
        ? r.outcome
        : r.outcome === undefined
          ? "completed"
          : r.outcome,
      evidence: upgradeEvidence(r.evidence),
      recommendations: list(r.recommendations).filter((x): x is string => typeof x === "string"),
      refs: list(r.refs)
        .filter(isObject)
        .filter((x) => typeof x.ref === "string")
        .map((x) => ({ ...x, ref: x.ref, kind: text(x.kind, "artifact") })),
      items: [],
      changeSet: upgradeChangeSet(r.changeSet),
      source,
      reviewNotes: list(r.reviewNotes)
        .filter(isObject)
        .map((n) => ({
          text: text(n.text),
          createdAt: text(n.createdAt),
          ...(typeof n.decisionId === "string" ? { decisionId: n.decisionId } : {}),
        })),
      approval,
      handoffProvenance: upgradeProvenance(r.handoffProvenance),
    };
  },
};

/** The registered chain, one step per schema version, in order. */
export const UPGRADE_CHAIN: readonly UpgradeStep[] = [anchorToV2];

/**
 * Classifies parsed JSON from `deliverables/<id>/v<N>.json`: upgrades older schemas through `chain`, and says why
 * a record cannot be loaded (newer schema, no upgrade path, broken invariants) instead of dropping it.
 */
export function classifyStoredRecord(
  value: unknown,
  expected: { id: string; version: number },
  chain: readonly UpgradeStep[] = UPGRADE_CHAIN,
): StoredClassification {
  if (!isObject(value))
    return { status: "unsupported", reason: "corrupt", detail: "the file does not hold a JSON object" };
  const schema = value.schemaVersion;
  if (typeof schema !== "number" || !Number.isInteger(schema) || schema < 1) {
    return {
      status: "unsupported",
      reason: "no-upgrade-path",
      detail: `schemaVersion ${JSON.stringify(schema ?? null)} is not a known record schema`,
    };
  }
  if (schema > STORED_SCHEMA_VERSION) {
    return {
      status: "unsupported",
      reason: "newer-schema",
      detail: `schemaVersion ${schema} is newer than this build reads (${STORED_SCHEMA_VERSION}); upgrade docket`,
    };
  }
  let record: Json = value;
  for (let v = schema; v < STORED_SCHEMA_VERSION; v++) {
    const step = chain.find((s) => s.from === v);
    if (!step)
      return {
        status: "unsupported",
        reason: "no-upgrade-path",
        detail: `no upgrade from schemaVersion ${v} to ${v + 1}`,
      };
    record = step.upgrade(record);
  }
  const issues = storedDeliverableIssues(record, expected);
  if (issues.length > 0) {
    return {
      status: "unsupported",
      reason: "invalid",
      detail: `${schema < STORED_SCHEMA_VERSION ? `upgraded from schemaVersion ${schema}, ` : ""}invalid: ${issues.join(", ")}`,
    };
  }
  const result: StoredClassification = { status: "ok", record: record as unknown as StoredDeliverable };
  if (schema < STORED_SCHEMA_VERSION) result.upgradedFrom = schema;
  return result;
}
