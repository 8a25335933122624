// Reads a JSON file that may be absent or damaged, as untrusted input: absent → undefined, damaged → a reason.
// A parsed file carries the sha256 of the exact bytes read, so what was judged can be bound to its content (DESIGN §8a).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export type JsonRead = { ok: true; value: unknown; sha256: string } | { ok: false; reason: string } | { ok: "absent" };

export function readJsonFile(path: string): JsonRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: "absent" };
    return { ok: false, reason: `cannot read ${path}: ${(error as Error).message}` };
  }
  const text = bytes.toString("utf8");
  try {
    return { ok: true, value: JSON.parse(text), sha256: createHash("sha256").update(bytes).digest("hex") };
  } catch (error) {
    return { ok: false, reason: `${path} is not valid JSON: ${(error as Error).message}` };
  }
}
