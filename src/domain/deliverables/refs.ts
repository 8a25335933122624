// The one grammar of reviewable refs, parsed and printed here only: a worker (`w3`), a worker version (`w3:v2`,
// `worker-deliverable:w3:2`), a combined version (`combined:w2+w3:1`) and a stored record (`deliverable:…`, `d<N>`, `last`).

import { notFound, validationError } from "../errors.js";
import { assertExactRef, normalizeWorkerId } from "../ids.js";

// Every parser here tells the observer a test may set which text it read: a command parses the ref it was given once,
// and hands the parsed value down (a test holds it to that).
let observer: ((text: string) => void) | undefined;

/** For tests: `fn` sees every text a ref parser here reads, until the returned function is called. */
export function observeRefParses(fn: (text: string) => void): () => void {
  observer = fn;
  return () => {
    observer = undefined;
  };
}

// Worker versions: `worker-deliverable:w3:2`, its change set `worker-changes:w3:2`.
export const deliverableId = (workerId: string): string => `worker-deliverable:${workerId}`;
export const deliverableRef = (workerId: string, version: number): string =>
  `worker-deliverable:${workerId}:${version}`;
export const changeSetRef = (workerId: string, version: number): string => `worker-changes:${workerId}:${version}`;

/** Parses `worker-deliverable:<w>:<N>` (or `<w>:v<N>` shorthand); undefined when it is not a worker ref. */
export function parseDeliverableRef(ref: string): { workerId: string; version: number } | undefined {
  observer?.(ref);
  return matchDeliverableRef(ref);
}

function matchDeliverableRef(ref: string): { workerId: string; version: number } | undefined {
  const m = /^(?:worker-deliverable:)?(w[1-9][0-9]{0,9})(?::v?|@v)([1-9][0-9]{0,9})$/.exec(ref);
  if (m) return { workerId: m[1]!, version: Number(m[2]) };
  const zero = /^(?:worker-deliverable:)?(w[1-9][0-9]{0,9})(?::v?|@v)0+$/.exec(ref);
  if (zero)
    throw validationError(
      "no-such-version",
      `${zero[1]} has no version 0: versions count from v1`,
      `\`docket verdict ${zero[1]}\` shows its current version`,
    );
  return undefined;
}

// Combined versions: `combined:w2+w3:1`, its change set `combined-changes:w2+w3:1`.
const COMBINED = /^combined:(w[1-9][0-9]{0,9})\+(w[1-9][0-9]{0,9})(?::v?([1-9][0-9]{0,9}))?$/;
const seq = (w: string): number => Number(w.slice(1));

/** `w2+w3`, lower label first, whatever order the human named them in. */
export function combinedKey(a: string, b: string): string {
  return seq(a) <= seq(b) ? `${a}+${b}` : `${b}+${a}`;
}

export const combinedId = (key: string): string => `combined:${key}`;
export const combinedRef = (key: string, version: number): string => `combined:${key}:${version}`;
export const combinedChangesRef = (key: string, version: number): string => `combined-changes:${key}:${version}`;

/** `combined:w2+w3:1` (or without the version: the pair's latest); undefined when it is not a combined ref. */
export function parseCombinedRef(
  text: string,
): { key: string; workers: [string, string]; version?: number } | undefined {
  observer?.(text);
  return matchCombinedRef(text);
}

function matchCombinedRef(text: string): { key: string; workers: [string, string]; version?: number } | undefined {
  const m = COMBINED.exec(text);
  if (!m || m[1] === m[2] || seq(m[1]!) > seq(m[2]!)) return undefined;
  return { key: `${m[1]}+${m[2]}`, workers: [m[1]!, m[2]!], ...(m[3] ? { version: Number(m[3]) } : {}) };
}

// Stored records: `deliverable:<id>:<N>`.
const STORED_PREFIX = "deliverable:";
export const storedRef = (id: string, version: number): string => `${STORED_PREFIX}${id}:${version}`;
/** True for text in a stored record's own ref form (`deliverable:…`), whole or partial. */
export const isStoredRecordRef = (text: string): boolean => text.startsWith(STORED_PREFIX);

/** What a store lookup matches by id prefix: the text with a leading `deliverable:` dropped. */
export const storedIdPrefixOf = (text: string): string =>
  isStoredRecordRef(text) ? text.slice(STORED_PREFIX.length) : text;

/** `deliverable:<id>:<N>`; undefined when it is not a stored ref. */
function matchStoredRef(ref: string): { id: string; version: number } | undefined {
  const m = /^deliverable:([A-Za-z0-9][A-Za-z0-9_-]{0,95}):([1-9][0-9]{0,9})$/.exec(ref);
  return m ? { id: m[1]!, version: Number(m[2]) } : undefined;
}

/**
 * What a store lookup is handed, by the store's own names: `last`, a `d<N>` slot, an exact `deliverable:<id>:<N>`, or
 * a name it matches by id, prefix or legacy bundle (`text`, trimmed).
 */
export type StoreName =
  | { kind: "last"; text: string }
  | { kind: "slot"; text: string }
  | { kind: "exact"; id: string; version: number; text: string }
  | { kind: "name"; text: string };

/** `text` as a store name (see StoreName). */
export function parseStoreName(text: string): StoreName {
  observer?.(text);
  return matchStoreName(text);
}

function matchStoreName(text: string): StoreName {
  const name = text.trim();
  if (name === "last") return { kind: "last", text: name };
  if (/^d[1-9][0-9]{0,9}$/.test(name)) return { kind: "slot", text: name };
  const exact = matchStoredRef(name);
  return exact ? { kind: "exact", ...exact, text: name } : { kind: "name", text: name };
}

export type ReviewableRef =
  /** A worker's version; without `version`, its current one. */
  | { kind: "worker"; worker: string; version?: number; text: string }
  /** A pair's combined version; without `version`, the pair's newest recorded one. */
  | { kind: "combined"; key: string; workers: [string, string]; version?: number; text: string }
  /** Anything the store resolves, and legacy `checkpoint:` refs (refused with their own reason where they are read). */
  | { kind: "stored"; text: string; name: StoreName }
  /** None of these: each verb refuses it in its own words. */
  | { kind: "unknown"; text: string };

/** A worker's version as parsed (or built from parts already known): what a worker's review path is handed. */
export type WorkerVersionRef = Extract<ReviewableRef, { kind: "worker" }>;
export type CombinedVersionRef = Extract<ReviewableRef, { kind: "combined" }>;

/** A worker's exact version from parts already known (a pointer, a row): nothing to parse. */
export const workerVersionRef = (worker: string, version: number): WorkerVersionRef => ({
  kind: "worker",
  worker,
  version,
  text: deliverableRef(worker, version),
});

/** A worker by its id as a row holds it (its current version): nothing to parse. */
export const workerCurrentRef = (worker: string): WorkerVersionRef => ({ kind: "worker", worker, text: worker });

/** A pair's combined version from parts already known (a ledger row): nothing to parse. */
export const combinedVersionRef = (key: string, version: number): CombinedVersionRef => ({
  kind: "combined",
  key,
  workers: key.split("+") as [string, string],
  version,
  text: combinedRef(key, version),
});

const STORED = /^(deliverable:|checkpoint:|d[1-9][0-9]*$|last$|human-|worker-|parent-)/;
const COMBINED_PREFIX = "combined:";

/**
 * What `text` names. Anything that starts like a combined ref is one or is refused as such (never read as a worker);
 * a bare pair `w2+w3` (a card's subject) is its newest combined version; a worker ref or id wins over the store's names.
 */
export function parseReviewableRef(text: string): ReviewableRef {
  observer?.(text);
  assertExactRef(text);
  const t = text;
  if (t.startsWith(COMBINED_PREFIX)) {
    const c = matchCombinedRef(t);
    if (!c)
      throw notFound(
        "bad-combined-ref",
        `"${text}" is not a combined ref; combined versions are combined:w<N>+w<M>:<K> (lower worker first)`,
        "`docket verdict` lists them",
      );
    return {
      kind: "combined",
      key: c.key,
      workers: c.workers,
      ...(c.version !== undefined ? { version: c.version } : {}),
      text: t,
    };
  }
  const pair = matchCombinedRef(`${COMBINED_PREFIX}${t}`);
  if (pair && pair.version === undefined) return { kind: "combined", key: pair.key, workers: pair.workers, text: t }; // a card's subject, `w2+w3`
  const worker = matchWorkerRef(t);
  if (worker) return worker;
  if (STORED.test(t)) return { kind: "stored", text: t, name: matchStoreName(t) };
  return { kind: "unknown", text: t };
}

/** `w3`, `w3:v2` or `worker-deliverable:w3:2` (a verb that takes a worker's version only); undefined: none of these. */
export function parseWorkerRef(text: string): WorkerVersionRef | undefined {
  observer?.(text);
  return matchWorkerRef(text);
}

function matchWorkerRef(t: string): WorkerVersionRef | undefined {
  const exact = matchDeliverableRef(t);
  if (exact) return { kind: "worker", worker: exact.workerId, version: exact.version, text: t };
  const worker = normalizeWorkerId(t);
  return worker ? { kind: "worker", worker, text: t } : undefined;
}

/** `--version` goes with a worker id; a combined or stored ref names its version itself. */
export function versionNamedByRef(kind: "combined" | "stored"): ReturnType<typeof validationError> {
  return validationError(
    "version-stored",
    `--version applies to a worker id; a ${kind} ref names its version itself`,
    "drop --version",
  );
}

/** The kind alone, for a dispatch that routes before it resolves. */
export const refKind = (text: string): ReviewableRef["kind"] => parseReviewableRef(text).kind;

/** A card's subject as its `worker` field names it: a worker (`w3`) or a combined pair (`w2+w3`). */
export type Subject = { kind: "worker"; worker: string } | { kind: "combined"; key: string };

export function parseSubject(subject: string): Subject | undefined {
  observer?.(subject);
  assertExactRef(subject);
  const pair = matchCombinedRef(`${COMBINED_PREFIX}${subject}`);
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
  return s ? actionRefOf(s, version).text : subject;
}

/** What a card's action names (as actionTargetOf), of a subject already parsed: the ref itself, nothing to parse. */
export function actionRefOf(s: Subject, version: number | null): ReviewableRef {
  if (s.kind === "worker") return workerCurrentRef(s.worker);
  if (version !== null) return combinedVersionRef(s.key, version);
  return { kind: "combined", key: s.key, workers: s.key.split("+") as [string, string], text: combinedId(s.key) };
}

/** The exact ref of `version` of a card's subject. */
export function versionRefOf(subject: string, version: number): string {
  const s = parseSubject(subject);
  return s ? exactRefOf(s, version) : deliverableRef(subject, version);
}

/** The exact ref of `version` of a subject already parsed. */
export function exactRefOf(s: Subject, version: number): string {
  return s.kind === "combined" ? combinedRef(s.key, version) : deliverableRef(s.worker, version);
}

/** A worker version's ref without its `worker-deliverable:` prefix (`w3:2`), as a listing shows it; any other ref as it is. */
export function shortRefOf(ref: string): string {
  const w = /^worker-deliverable:(.+)$/.exec(ref);
  return w ? w[1]! : ref;
}

/** The subject a card names for this ref: a worker id or a pair key; undefined for a stored or unknown ref. */
export function subjectOf(ref: ReviewableRef): string | undefined {
  return ref.kind === "worker" ? ref.worker : ref.kind === "combined" ? ref.key : undefined;
}
