// Reads a JSON file that may be absent or damaged, as untrusted input: absent → undefined, damaged → a reason.
// A parsed file carries the sha256 of the exact bytes read, so what was judged can be bound to its content
// (docs/decisions/authority.md).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseStrictJsonBytes } from "../domain/text/strict-json.js";

export type JsonRead = { ok: true; value: unknown; sha256: string } | { ok: false; reason: string } | { ok: "absent" };

export function readJsonFile(path: string): JsonRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: "absent" };
    return { ok: false, reason: `cannot read ${path}: ${(error as Error).message}` };
  }
  // Strictly: valid UTF-8, and no key that could reach a prototype once the value is merged (domain/text/strict-json).
  const parsed = parseStrictJsonBytes(bytes);
  if (!parsed.ok) return { ok: false, reason: `${path} ${parsed.reason}` };
  return { ok: true, value: parsed.value, sha256: createHash("sha256").update(bytes).digest("hex") };
}
