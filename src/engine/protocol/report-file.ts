// Parses `docket worker report --file <json>` as the client sent it: per-item entries (or {"items": [...]}), each validated later.
// Evidence may be given as {kind, text} objects or as "kind=text" strings, like the command-line flag.

import { validationError } from "../../domain/errors.js";
import { parseStrictJson } from "../../domain/text/strict-json.js";
import { parseEvidenceFlag, type ReportEntryInput } from "../../domain/work/report.js";
import type { SentFile } from "./input.js";

export function reportFileEntries(file: SentFile): ReportEntryInput[] {
  const { path, text } = file;
  const parsed = parseStrictJson(text);
  if (!parsed.ok) throw validationError("report-file-invalid", `report file ${path} ${parsed.reason}`);
  const data = parsed.value;
  const list = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.items) ? data.items : undefined;
  if (!list || list.length === 0) {
    throw validationError(
      "report-file-invalid",
      `report file ${path} must hold a non-empty JSON array of {item, outcome, body, evidence?, forHuman?, answers?, key?}`,
    );
  }
  return list.map((raw, i) => {
    if (!isObject(raw)) throw validationError("report-file-invalid", `entry ${i + 1} of ${path} is not an object`);
    // The entry's values stay unknown here: validateReportEntry checks every one of them.
    const evidence = Array.isArray(raw.evidence)
      ? raw.evidence.map((e: unknown) => (typeof e === "string" ? parseEvidenceFlag(e) : e))
      : undefined;
    return {
      item: raw.item,
      outcome: raw.outcome,
      body: raw.body,
      evidence,
      forHuman: Array.isArray(raw.forHuman) ? raw.forHuman : undefined,
      answers: isObject(raw.answers) ? raw.answers : undefined,
      // A file entry's `key` is its call id: the idempotency key itself is built by the engine (domain/idempotency).
      callId: typeof raw.key === "string" ? raw.key : undefined,
    };
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
