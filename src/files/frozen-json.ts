// One frozen JSON file inside the Docket home, read as untrusted input: never through a link, parsed, checked by the
// caller's validator, and hashed over the exact bytes parsed (what an approval binds to,
// docs/decisions/immutable-deliverables.md).

import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { linkBelow, readNoFollow } from "./no-follow.js";

export type FrozenRead<T> =
  | { ok: true; deliverable: T; path: string; sha256: string }
  | { ok: false; reason: string; path: string };

export type FrozenCheck<T> = { ok: true; deliverable: T } | { ok: false; issues: string[] };

/** Reads `path` (below `root`); a link on the way, a missing, unparsable or invalid file is `ok: false` with a reason. */
export function readFrozenJson<T>(
  root: string,
  path: string,
  validate: (value: unknown) => FrozenCheck<T>,
): FrozenRead<T> {
  const linked = linkBelow(root, dirname(path));
  if (linked)
    return {
      ok: false,
      reason: `${linked.path} is ${linked.kind === "symlink" ? "a symbolic link" : "not a directory"}; Docket never follows links inside its home`,
      path,
    };
  const read = readNoFollow(path);
  if (read.ok === "absent") return { ok: false, reason: `${path} is missing`, path };
  if (read.ok === false) return { ok: false, reason: read.reason, path };
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString("utf8"));
  } catch (error) {
    return { ok: false, reason: `${path} is not valid JSON: ${(error as Error).message}`, path };
  }
  const checked = validate(value);
  if (!checked.ok) return { ok: false, reason: `${path} is invalid: ${checked.issues.join("; ")}`, path };
  return {
    ok: true,
    deliverable: checked.deliverable,
    path,
    sha256: createHash("sha256").update(read.bytes).digest("hex"),
  };
}
