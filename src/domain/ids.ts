// Human-facing ids (t<N>, r<N>, w<N>, …) and the safety checks applied before any id becomes a path.
// Ids are never reused: numbering comes from the ledger's counters, this module only formats and parses.

import { validationError } from "./errors.js";

export type ItemKind = "todo" | "request";

export const ID_PREFIX = {
  todo: "t",
  request: "r",
  worker: "w",
  dispatch: "dp",
  binding: "b",
  obligation: "o",
  report: "rp",
  message: "m",
  question: "q",
  notification: "n",
  decision: "dc",
  chip: "c",
  slot: "d",
  journal: "j",
  note: "nt",
  combination: "cb",
  comment: "cm",
} as const;

export type IdSpace = keyof typeof ID_PREFIX;

export function formatId(space: IdSpace, n: number): string {
  return `${ID_PREFIX[space]}${n}`;
}

const ITEM_ID = /^([tr])([1-9][0-9]{0,9})$/;
const WORKER_ID = /^w([1-9][0-9]{0,9})$/;

/**
 * A ref the human types is exact, as Docket printed it: whitespace anywhere in it (a trailing space, a pasted newline)
 * is refused by name, never trimmed away into another ref.
 */
export function assertExactRef(value: string, what = "a ref"): void {
  if (!/\s/.test(value)) return;
  throw validationError(
    "ref-has-whitespace",
    `${JSON.stringify(value)} has whitespace in it: ${what} is exact, as Docket prints it; nothing changed`,
    `give it without spaces or newlines: ${JSON.stringify(value.replace(/\s+/g, ""))}`,
  );
}

export function parseItemId(value: string): { kind: ItemKind; n: number } | undefined {
  const m = ITEM_ID.exec(value);
  if (!m) return undefined;
  return { kind: m[1] === "t" ? "todo" : "request", n: Number(m[2]) };
}

/** True for exactly `w<N>`: a predicate for names found on disk or in a path, which never throws. */
export function isWorkerId(value: string): boolean {
  return WORKER_ID.test(value);
}

/**
 * The one rule for a worker ref, in every verb and door: exactly `w<N>`, as `ls` prints it. What only resembles one
 * (a bare `3`, `W3`, `w03`) is refused with the id it resembles, never taken for it; anything else is undefined.
 */
export function normalizeWorkerId(value: string): string | undefined {
  assertExactRef(value, "a worker id");
  const v = value;
  if (WORKER_ID.test(v)) return v;
  const near = /^[wW]?0*([1-9][0-9]{0,9})$/.exec(v);
  if (near)
    throw validationError(
      "bad-worker-ref",
      `${JSON.stringify(v)} is not a worker id: workers are w<N>, as \`docket ls\` prints them`,
      `did you mean w${near[1]}?`,
    );
  return undefined;
}

/** A conservative name for files and directories: letters, digits, `_`, `-`, `.` not leading; no traversal. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export function isSafeName(value: string): boolean {
  return SAFE_NAME.test(value) && !value.includes("..");
}
