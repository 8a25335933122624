// Reads the CLI door's input files for the worker protocol: the deliverable body (byte-exact) and JSON lists.
// A file that cannot be read or parsed is one validation error naming the file; nothing is written.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { validationError } from "../../domain/errors.js";

/** The body exactly as stored in the file (UTF-8), never trimmed or re-encoded line by line. */
export function readBodyFile(cwd: string, path: string): string {
  try {
    return readFileSync(resolve(cwd, path)).toString("utf8");
  } catch (error) {
    throw validationError("body-file-unreadable", `cannot read body file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** A JSON array (or `{"items": [...]}`) of objects from `path`; `what` names the expected entry shape. */
export function readJsonList(cwd: string, path: string, what: string): Record<string, unknown>[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(resolve(cwd, path), "utf8"));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw validationError("input-file-invalid", `cannot read ${path} as JSON: ${reason}`, `give a JSON array of ${what}`);
  }
  const list = Array.isArray(data) ? data : typeof data === "object" && data !== null && Array.isArray((data as { items?: unknown }).items) ? (data as { items: unknown[] }).items : undefined;
  if (!list || !list.every((e) => typeof e === "object" && e !== null && !Array.isArray(e))) {
    throw validationError("input-file-invalid", `${path} must hold a JSON array of ${what}`);
  }
  return list as Record<string, unknown>[];
}
