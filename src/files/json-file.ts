// Reads a JSON file that may be absent or damaged, as untrusted input: absent → undefined, damaged → a reason.

import { readFileSync } from "node:fs";

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string } | { ok: "absent" };

export function readJsonFile(path: string): JsonRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: "absent" };
    return { ok: false, reason: `cannot read ${path}: ${(error as Error).message}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `${path} is not valid JSON: ${(error as Error).message}` };
  }
}
