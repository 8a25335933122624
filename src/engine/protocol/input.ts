// Reads the CLI door's input for the worker protocol: the deliverable body (byte-exact, file or stdin) and JSON lists.
// Input is untrusted: a regular file or pipe of at most 16 MiB, else one validation error naming it; nothing is written.

import { resolve } from "node:path";
import { validationError } from "../../domain/errors.js";
import { INPUT_CAP_TEXT, readInputDescriptor, readInputFile } from "../../files/input-file.js";

export { INPUT_CAP_TEXT };

/** The body exactly as stored in the file (UTF-8), never trimmed or re-encoded line by line. */
export function readBodyFile(cwd: string, path: string, flag = "--body-file"): string {
  return readInputFile(resolve(cwd, path), `${flag} ${path}`).toString("utf8");
}

/** The body from standard input (a pipe or a redirected file), exactly as given. */
export function readBodyStdin(): string {
  return readInputDescriptor(0, "standard input").toString("utf8");
}

/** A JSON array (or `{"items": [...]}`) of objects from `path`; `what` names the expected entry shape. */
export function readJsonList(cwd: string, path: string, what: string, flag = "--items-file"): Record<string, unknown>[] {
  const text = readInputFile(resolve(cwd, path), `${flag} ${path}`).toString("utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw validationError("input-file-invalid", `cannot read ${path} as JSON: ${(error as Error).message}`, `give a JSON array of ${what}`);
  }
  const list = Array.isArray(data) ? data : typeof data === "object" && data !== null && Array.isArray((data as { items?: unknown }).items) ? (data as { items: unknown[] }).items : undefined;
  if (!list || !list.every((e) => typeof e === "object" && e !== null && !Array.isArray(e))) {
    throw validationError("input-file-invalid", `${path} must hold a JSON array of ${what}`);
  }
  return list as Record<string, unknown>[];
}
