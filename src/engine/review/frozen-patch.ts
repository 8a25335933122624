// The frozen patch `docket diff` shows, of any reviewable version — never live state
// (docs/decisions/immutable-deliverables.md, docs/decisions/deliverable-store.md). A stored ref is read through the
// store with its pin verified, so a diff shows exactly what a promotion of it would apply.

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import type { EngineContext } from "../context.js";
import { resolveReviewable } from "./reviewable.js";
import { shownDiffFiles, shownPatch as shownPatchOf, type ShownPatch } from "../../domain/deliverables/shown-patch.js";
import type { DiffFile } from "../../domain/deliverables/diff-files.js";

export type { ShownPatch };

export interface FrozenPatchView {
  /** The worker that made it (null for a stored record with no worker source). */
  worker: string | null;
  deliverable: DeliverablePointer;
  changeSet: ChangeSet | null;
  patch: string;
}

/** What `docket diff` prints: the frozen patch with each binary section the check decoded at `done` shown as text. */
export function shownPatch(view: FrozenPatchView): ShownPatch {
  return shownPatchOf(view.changeSet && { files: view.changeSet.files, patch: view.patch });
}

/** The same patch as per-file data for a viewer (pi's): decoded files as text, marked `frozenAsBinary`. */
export function shownFiles(view: FrozenPatchView): DiffFile[] {
  return shownDiffFiles(view.changeSet && { files: view.changeSet.files, patch: view.patch });
}

/** The frozen patch of any reviewable version (a stored ref is read through the store, its pin verified). */
export function frozenPatchOf(ctx: EngineContext, target: string, version?: number): FrozenPatchView {
  const r = resolveReviewable(ctx, { target, version }, "diff");
  return { worker: r.author, deliverable: r.pointer, changeSet: r.changeSet, patch: r.changeSet?.patch ?? "" };
}
