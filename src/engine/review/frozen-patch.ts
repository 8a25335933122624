// The frozen patch `docket diff` shows: a worker version's, or a stored record's — never live state (ADR-0003, ADR-0005).
// A stored ref is read through the store (pin verified), so a diff shows exactly what a promotion of it would apply.

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { refusal, validationError } from "../../domain/errors.js";
import type { EngineContext } from "../context.js";
import { readStoredTarget, resolveStoreTarget } from "../store/target.js";
import { deliverableByRef } from "./deliverables.js";
import { resolveCombined } from "./combined.js";
import { refKind } from "../../domain/deliverables/refs.js";
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

export function frozenPatchOf(ctx: EngineContext, target: string, version?: number): FrozenPatchView {
  const kind = refKind(target);
  if (kind === "combined") {
    if (version !== undefined) throw validationError("version-stored", "--version applies to a worker id; a combined ref names its version itself", "drop --version");
    const t = resolveCombined(ctx, target);
    return { worker: t.key, deliverable: t.pointer, changeSet: t.deliverable.changeSet, patch: t.deliverable.changeSet.patch };
  }
  if (kind === "stored") {
    if (version !== undefined) throw validationError("version-stored", "--version applies to a worker id; a stored ref names its version itself", "drop --version");
    const t = resolveStoreTarget(ctx, target);
    if (t.kind === "legacy") throw refusal("legacy-no-patch", `${t.ref} is a legacy checkpoint bundle; it carries no change set`, `read it with \`docket preview ${t.ref}\``);
    const { record } = readStoredTarget(ctx, t);
    return {
      worker: record.source.kind === "worker" ? record.source.workerId : null,
      deliverable: { id: record.id, version: record.version, ref: record.ref },
      changeSet: record.changeSet,
      patch: record.changeSet?.patch ?? "",
    };
  }
  const r = deliverableByRef(ctx, target, version);
  return { worker: r.workerId, deliverable: r.pointer, changeSet: r.deliverable.changeSet, patch: r.deliverable.changeSet?.patch ?? "" };
}
