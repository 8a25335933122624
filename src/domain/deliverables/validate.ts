// Validation of a parsed worker deliverable sidecar: schema version, field types, and identity consistency.
// A sidecar is untrusted input on read: anything off reads as invalid and is never repaired
// (docs/decisions/immutable-deliverables.md).

import { changeSetRef, deliverableId, deliverableRef } from "./refs.js";
import { DELIVERABLE_SCHEMA_VERSION, DONE_OUTCOMES, type WorkerDeliverable } from "./deliverable.js";
import { EVIDENCE_KINDS } from "../work/report.js";

export type DeliverableValidation = { ok: true; deliverable: WorkerDeliverable } | { ok: false; issues: string[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** Checks `value` as the sidecar `v<version>.json` of `workerId`; collects every problem found. */
export function validateDeliverable(
  value: unknown,
  expect: { workerId: string; version: number },
): DeliverableValidation {
  const issues: string[] = [];
  if (!isObject(value)) return { ok: false, issues: ["not a JSON object"] };
  const d = value;
  if (d.schemaVersion !== DELIVERABLE_SCHEMA_VERSION) {
    issues.push(
      `schemaVersion ${JSON.stringify(d.schemaVersion)} is not supported (expected ${DELIVERABLE_SCHEMA_VERSION})`,
    );
    return { ok: false, issues };
  }
  if (d.id !== deliverableId(expect.workerId))
    issues.push(`id ${JSON.stringify(d.id)} does not belong to ${expect.workerId}`);
  if (d.version !== expect.version)
    issues.push(`version ${JSON.stringify(d.version)} does not match file v${expect.version}.json`);
  if (d.ref !== deliverableRef(expect.workerId, expect.version))
    issues.push(`ref ${JSON.stringify(d.ref)} does not match ${deliverableRef(expect.workerId, expect.version)}`);
  for (const k of ["createdAt", "toolCallId", "summary", "body"] as const) {
    if (typeof d[k] !== "string") issues.push(`${k} must be a string`);
  }
  if (!(DONE_OUTCOMES as readonly unknown[]).includes(d.outcome))
    issues.push(`outcome ${JSON.stringify(d.outcome)} is not one of ${DONE_OUTCOMES.join(", ")}`);
  const source = d.source;
  if (!isObject(source)) issues.push("source must be an object");
  else {
    if (source.workerId !== expect.workerId)
      issues.push(`source.workerId ${JSON.stringify(source.workerId)} is not ${expect.workerId}`);
    if (typeof source.task !== "string" || typeof source.kind !== "string")
      issues.push("source.task and source.kind must be strings");
    if (!isCount(source.generation)) issues.push("source.generation must be a whole number");
  }
  if (
    !Array.isArray(d.evidence) ||
    !d.evidence.every(
      (e) => isObject(e) && (EVIDENCE_KINDS as readonly unknown[]).includes(e.kind) && typeof e.text === "string",
    )
  ) {
    issues.push(`evidence must be a list of {kind: ${EVIDENCE_KINDS.join("|")}, text}`);
  }
  if (!Array.isArray(d.recommendations) || !d.recommendations.every((r) => typeof r === "string"))
    issues.push("recommendations must be a list of strings");
  if (
    !Array.isArray(d.items) ||
    !d.items.every(
      (i) => isObject(i) && typeof i.item === "string" && typeof i.outcome === "string" && typeof i.body === "string",
    )
  ) {
    issues.push("items must be a list of {item, outcome, body}");
  }
  if (
    d.addressed !== undefined &&
    (!Array.isArray(d.addressed) ||
      !d.addressed.every((a) => isObject(a) && typeof a.comment === "string" && typeof a.note === "string"))
  ) {
    issues.push("addressed must be a list of {comment, note}");
  }
  if (d.changeSet !== null) issues.push(...changeSetIssues(d.changeSet, expect));
  return issues.length === 0 ? { ok: true, deliverable: d as unknown as WorkerDeliverable } : { ok: false, issues };
}

function changeSetIssues(cs: unknown, expect: { workerId: string; version: number }): string[] {
  if (!isObject(cs)) return ["changeSet must be an object or null"];
  const issues: string[] = [];
  if (cs.ref !== changeSetRef(expect.workerId, expect.version))
    issues.push(`changeSet.ref ${JSON.stringify(cs.ref)} does not match this version`);
  if (typeof cs.base !== "string" || typeof cs.stat !== "string" || typeof cs.patch !== "string")
    issues.push("changeSet.base, stat and patch must be strings");
  if (!isCount(cs.hunks)) issues.push("changeSet.hunks must be a whole number");
  if (
    !Array.isArray(cs.files) ||
    !cs.files.every((f) => isObject(f) && typeof f.path === "string" && isCount(f.additions) && isCount(f.deletions))
  ) {
    issues.push("changeSet.files must be a list of {path, additions, deletions}");
  }
  return issues;
}
