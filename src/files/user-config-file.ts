// Rewrites the user's own config file (`$DOCKET_HOME/config.json`) for a verb that changes one section of it (hosts).
// Atomic replace of the whole object; every other key is kept as written; a damaged file is refused, never overwritten.

import { refusal } from "../domain/errors.js";
import { writeFileAtomic } from "./atomic.js";
import { readJsonFile } from "./json-file.js";

type Raw = Record<string, unknown>;

/** Applies `change` to the parsed file (an empty object when absent) and writes the result back (0600). */
export function updateUserConfigFile(path: string, change: (raw: Raw) => Raw): Raw {
  const read = readJsonFile(path);
  if (read.ok === false)
    throw refusal("config-unreadable", `${read.reason}; nothing was changed`, `fix or move ${path} first`);
  const current = read.ok === true ? read.value : {};
  if (typeof current !== "object" || current === null || Array.isArray(current)) {
    throw refusal(
      "config-unreadable",
      `${path} is not a JSON object; nothing was changed`,
      `fix or move ${path} first`,
    );
  }
  const next = change(structuredClone(current as Raw));
  writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
  return next;
}
