// The one grammar of reviewable refs, parsed and printed here only: a worker (`w3`), a worker version (`w3:v2`,
// `worker-deliverable:w3:2`), a combined version (`combined:w2+w3:1`) and a stored record (`deliverable:…`, `d<N>`, `last`).

import { notFound } from "../errors.js";
import { normalizeWorkerId } from "../ids.js";
import { combinedRef, parseCombinedRef } from "./combined.js";
import { deliverableRef, parseDeliverableRef } from "./deliverable.js";

export type ReviewableRef =
  /** A worker's version; without `version`, its current one. */
  | { kind: "worker"; worker: string; version?: number; text: string }
  /** A pair's combined version; without `version`, the pair's newest recorded one. */
  | { kind: "combined"; key: string; workers: [string, string]; version?: number; text: string }
  /** Anything the store resolves, and legacy `checkpoint:` refs (refused with their own reason where they are read). */
  | { kind: "stored"; text: string }
  /** None of these: each verb refuses it in its own words. */
  | { kind: "unknown"; text: string };

const STORED = /^(deliverable:|checkpoint:|d[1-9][0-9]*$|last$|human-|worker-|parent-)/;
const COMBINED_PREFIX = "combined:";

/**
 * What `text` names. Anything that starts like a combined ref is one or is refused as such (never read as a worker);
 * a worker ref or id wins over the store's names.
 */
export function parseReviewableRef(text: string): ReviewableRef {
  const t = text.trim();
  if (t.startsWith(COMBINED_PREFIX)) {
    const c = parseCombinedRef(t);
    if (!c) throw notFound("bad-combined-ref", `"${text}" is not a combined ref; combined versions are combined:w<N>+w<M>:<K> (lower worker first)`, "`docket verdict` lists them");
    return { kind: "combined", key: c.key, workers: c.workers, ...(c.version !== undefined ? { version: c.version } : {}), text: t };
  }
  const exact = parseDeliverableRef(t);
  if (exact) return { kind: "worker", worker: exact.workerId, version: exact.version, text: t };
  const worker = normalizeWorkerId(t);
  if (worker) return { kind: "worker", worker, text: t };
  if (STORED.test(t)) return { kind: "stored", text: t };
  return { kind: "unknown", text: t };
}

/** The kind alone, for a dispatch that routes before it resolves. */
export const refKind = (text: string): ReviewableRef["kind"] => parseReviewableRef(text).kind;

/** A card's subject as its `worker` field names it: a worker (`w3`) or a combined pair (`w2+w3`). */
export type Subject = { kind: "worker"; worker: string } | { kind: "combined"; key: string };

export function parseSubject(subject: string): Subject | undefined {
  const pair = parseCombinedRef(`${COMBINED_PREFIX}${subject.trim()}`);
  if (pair) return { kind: "combined", key: pair.key };
  const worker = normalizeWorkerId(subject);
  return worker ? { kind: "worker", worker } : undefined;
}

/**
 * What a card's action names: a worker by its id (the version it showed is checked separately, so a version published
 * meanwhile is refused as moved), a combined version by its exact ref (each combined version is judged on its own).
 */
export function actionTargetOf(subject: string, version: number | null): string {
  const s = parseSubject(subject);
  if (s?.kind === "combined") return version === null ? `${COMBINED_PREFIX}${s.key}` : combinedRef(s.key, version);
  return subject;
}

/** The exact ref of `version` of a card's subject. */
export function versionRefOf(subject: string, version: number): string {
  const s = parseSubject(subject);
  return s?.kind === "combined" ? combinedRef(s.key, version) : deliverableRef(subject, version);
}

/** The subject a card names for this ref: a worker id or a pair key; undefined for a stored or unknown ref. */
export function subjectOf(ref: ReviewableRef): string | undefined {
  return ref.kind === "worker" ? ref.worker : ref.kind === "combined" ? ref.key : undefined;
}
