// A worker's per-item word: exactly four outcomes, a non-empty body, typed evidence, lines for the human.
// Validation runs before the store is touched (docs/decisions/item-reports.md: "a per-item outcome and explanation are
// required").

import { validationError } from "../errors.js";

export const REPORT_OUTCOMES = ["done", "released", "abandoned", "blocked"] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

export const EVIDENCE_KINDS = ["commit", "test", "artifact", "runtime", "note"] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The most evidence entries one report or one deliverable carries (each entry is a line the human reads). */
export const MAX_EVIDENCE = 100;

/** The refusal of a list over MAX_EVIDENCE, in every door that takes evidence. */
export function tooMuchEvidence(count: number): Error {
  return validationError(
    "evidence-invalid",
    `at most ${MAX_EVIDENCE} evidence entries; got ${count}`,
    `keep the ${MAX_EVIDENCE} that matter most, or put the rest in the body`,
  );
}

export interface Evidence {
  kind: EvidenceKind;
  text: string;
}

/** One entry as a caller gave it (flags, a tool call, a JSON file): nothing is trusted until validateReportEntry. */
export interface ReportEntryInput {
  item: unknown;
  outcome: unknown;
  body: unknown;
  evidence?: readonly unknown[];
  forHuman?: readonly unknown[];
  /** reply id → answer text */
  answers?: Readonly<Record<string, unknown>>;
  /** The caller's call id for this entry (`--key`, a file entry's `key`): a retry with the same id replays. */
  callId?: string;
}

export interface ReportEntry {
  item: string;
  outcome: ReportOutcome;
  body: string;
  evidence: Evidence[];
  forHuman: string[];
  answers: Record<string, string>;
  callId?: string;
}

export const PER_ITEM_REQUIRED = "a per-item outcome and explanation are required";

export function isReportOutcome(value: unknown): value is ReportOutcome {
  return typeof value === "string" && (REPORT_OUTCOMES as readonly string[]).includes(value);
}

export function isEvidenceKind(value: unknown): value is EvidenceKind {
  return typeof value === "string" && (EVIDENCE_KINDS as readonly string[]).includes(value);
}

/** A parsed evidence list (a report row's column, a stored record's field) checked entry by entry. */
export function isEvidenceList(value: unknown): value is Evidence[] {
  return (
    Array.isArray(value) &&
    value.every(
      (e: unknown) =>
        typeof e === "object" &&
        e !== null &&
        "kind" in e &&
        "text" in e &&
        isEvidenceKind(e.kind) &&
        typeof e.text === "string",
    )
  );
}

/** Checks one entry before any store access; throws the seed's exact validation message. */
export function validateReportEntry(input: ReportEntryInput): ReportEntry {
  if (!isReportOutcome(input.outcome) || typeof input.body !== "string" || input.body.trim() === "") {
    throw validationError(
      "report-entry-invalid",
      PER_ITEM_REQUIRED,
      `outcome must be one of ${REPORT_OUTCOMES.join(", ")} and body non-empty`,
    );
  }
  if ((input.evidence ?? []).length > MAX_EVIDENCE) throw tooMuchEvidence((input.evidence ?? []).length);
  const evidence = (input.evidence ?? []).map((e) => {
    const { kind, text } = (typeof e === "object" && e !== null ? e : {}) as { kind?: unknown; text?: unknown };
    if (!isEvidenceKind(kind) || typeof text !== "string" || text.trim() === "") {
      throw validationError(
        "evidence-invalid",
        `evidence must be <${EVIDENCE_KINDS.join("|")}>=<text>; got ${JSON.stringify(e)}`,
      );
    }
    return { kind, text: text.trim() };
  });
  const forHuman = (input.forHuman ?? []).map((l) => String(l).trim()).filter((l) => l !== "");
  const answers: Record<string, string> = {};
  for (const [id, text] of Object.entries(input.answers ?? {})) {
    if (typeof text !== "string" || text.trim() === "")
      throw validationError("answer-invalid", `answer to ${id} must be non-empty text`);
    answers[id] = text;
  }
  return {
    item: String(input.item ?? "").trim(),
    outcome: input.outcome,
    body: input.body,
    evidence,
    forHuman,
    answers,
    callId: input.callId,
  };
}

/** Parses `kind=text` as given on the command line. */
export function parseEvidenceFlag(value: string): Evidence {
  const eq = value.indexOf("=");
  const kind = eq > 0 ? value.slice(0, eq) : "";
  const text = eq > 0 ? value.slice(eq + 1) : "";
  if (!isEvidenceKind(kind) || text.trim() === "") {
    throw validationError("evidence-invalid", `evidence must be <${EVIDENCE_KINDS.join("|")}>=<text>; got "${value}"`);
  }
  return { kind, text: text.trim() };
}

export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
