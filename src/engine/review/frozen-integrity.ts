// A frozen change set re-read by the human's git before it is applied: the file list a sidecar carries must be exactly
// what git reads in its patch bytes, so a sidecar written around `done` cannot land a file no surface showed.

import type { ChangeSet } from "../../domain/deliverables/deliverable.js";
import { samePaths } from "../../domain/deliverables/patch-integrity.js";
import { refusal } from "../../domain/errors.js";
import type { EngineContext } from "../context.js";

export function assertFrozenIntegrity(ctx: EngineContext, ref: string, change: ChangeSet): void {
  const read = ctx.git.readFrozenPatch(change.patch);
  const reason = !read.ok
    ? read.reason
    : samePaths(change.files, read.files)
      ? undefined
      : "the files it lists differ from the files git reads in its patch";
  if (reason === undefined) return;
  throw refusal(
    "patch-integrity-failed",
    `the frozen change set of ${ref} fails the integrity check: ${reason}; nothing changed`,
    "ask the worker for a new version, or reject this one",
  );
}
