// The CLI door's list inputs for the worker protocol, as the worker's client read them: JSON text named by its file.
// The client reads the bytes (a regular file or pipe, capped); the door parses them here, so nothing is read twice.

import { validationError } from "../../domain/errors.js";
import { parseStrictJson } from "../../domain/text/strict-json.js";

export { INPUT_CAP_TEXT } from "../../domain/input-cap.js";

/** A file's text as the worker's client sent it through the door: `path` names it in refusals. */
export interface SentFile {
  path: string;
  text: string;
}

export function isSentFile(value: unknown): value is SentFile {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as SentFile).path === "string" &&
    typeof (value as SentFile).text === "string"
  );
}

/** A JSON array (or `{"items": [...]}`) of objects; `what` names the expected entry shape. */
export function jsonListOf(file: SentFile, what: string): Record<string, unknown>[] {
  const parsed = parseStrictJson(file.text);
  if (!parsed.ok)
    throw validationError("input-file-invalid", `${file.path} ${parsed.reason}`, `give a JSON array of ${what}`);
  const data = parsed.value;
  const list = Array.isArray(data)
    ? data
    : typeof data === "object" && data !== null && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : undefined;
  if (!list?.every((e) => typeof e === "object" && e !== null && !Array.isArray(e))) {
    throw validationError("input-file-invalid", `${file.path} must hold a JSON array of ${what}`);
  }
  return list as Record<string, unknown>[];
}
