// A combined deliverable: the frozen merge of two workers' frozen change sets, `combined:w2+w3:<N>`, immutable once
// claimed like any version; it credits both sources and is judged and promoted through the one frozen path.

import { DELIVERABLE_SCHEMA_VERSION, type ChangeSet } from "./deliverable.js";
import { combinedChangesRef, combinedId, combinedRef } from "./refs.js";

export interface CombinedSource {
  worker: string;
  ref: string;
  version: number;
  /** The sha256 of the source sidecar the merge read (what its own approval, if any, bound). */
  sha256: string;
  task: string;
}

export interface CombinedDeliverable {
  schemaVersion: 1;
  id: string;
  version: number;
  ref: string;
  createdAt: string;
  /** The operation that froze it (a retry finds its own orphan sidecar by this, as done finds one by tool-call id). */
  operation: string;
  sources: CombinedSource[];
  outcome: "completed";
  summary: string;
  body: string;
  /** `clean`: git merged it alone; `resolved`: the human resolved the contested files. */
  resolution: { kind: "clean" | "resolved"; contested: string[] };
  changeSet: ChangeSet;
}

/** The directory a pair's versions live in (`w2-w3`: a `+` has no place in a file name Docket builds). */
export const combinedDir = (key: string): string => key.replace("+", "-");

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Checks a parsed sidecar as `v<version>` of pair `key`; collects every problem. Untrusted input: never repaired. */
export function validateCombined(
  value: unknown,
  expect: { key: string; version: number },
): { ok: true; deliverable: CombinedDeliverable } | { ok: false; issues: string[] } {
  if (!isObject(value)) return { ok: false, issues: ["not a JSON object"] };
  const d = value;
  const issues: string[] = [];
  if (d.schemaVersion !== DELIVERABLE_SCHEMA_VERSION)
    return { ok: false, issues: [`schemaVersion ${JSON.stringify(d.schemaVersion)} is not supported`] };
  if (d.id !== combinedId(expect.key)) issues.push(`id ${JSON.stringify(d.id)} does not belong to ${expect.key}`);
  if (d.version !== expect.version)
    issues.push(`version ${JSON.stringify(d.version)} does not match file v${expect.version}.json`);
  if (d.ref !== combinedRef(expect.key, expect.version)) issues.push(`ref ${JSON.stringify(d.ref)} does not match`);
  for (const k of ["createdAt", "operation", "summary", "body"] as const)
    if (typeof d[k] !== "string") issues.push(`${k} must be a string`);
  if (d.outcome !== "completed") issues.push("outcome must be completed");
  const workers = expect.key.split("+");
  if (
    !Array.isArray(d.sources) ||
    d.sources.length !== 2 ||
    !d.sources.every(
      (s, i) =>
        isObject(s) &&
        s.worker === workers[i] &&
        typeof s.ref === "string" &&
        typeof s.sha256 === "string" &&
        typeof s.task === "string" &&
        Number.isInteger(s.version),
    )
  ) {
    issues.push(`sources must be ${workers.join(" and ")}, each {worker, ref, version, sha256, task}`);
  }
  const r = d.resolution;
  if (
    !isObject(r) ||
    (r.kind !== "clean" && r.kind !== "resolved") ||
    !Array.isArray(r.contested) ||
    !r.contested.every((p) => typeof p === "string")
  ) {
    issues.push("resolution must be {kind: clean|resolved, contested: [paths]}");
  }
  const cs = d.changeSet;
  if (
    !isObject(cs) ||
    cs.ref !== combinedChangesRef(expect.key, expect.version) ||
    typeof cs.base !== "string" ||
    typeof cs.patch !== "string" ||
    typeof cs.stat !== "string" ||
    !Array.isArray(cs.files) ||
    !cs.files.every((f) => isObject(f) && typeof f.path === "string")
  ) {
    issues.push("changeSet must be this version's {ref, base, files, stat, hunks, patch}");
  }
  return issues.length === 0 ? { ok: true, deliverable: d as unknown as CombinedDeliverable } : { ok: false, issues };
}
