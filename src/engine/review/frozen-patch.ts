// The frozen patch `docket diff` shows: a worker version's, or a stored record's — never live state (ADR-0003, ADR-0005).
// A stored ref is read through the store (pin verified), so a diff shows exactly what a promotion of it would apply.

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { refusal, validationError } from "../../domain/errors.js";
import type { EngineContext } from "../context.js";
import { readStoredTarget, resolveStoreTarget } from "../store/target.js";
import { deliverableByRef } from "./deliverables.js";
import { resolveCombined } from "./combined.js";
import { refKind } from "../../domain/deliverables/refs.js";
import { parseDiffSections } from "../../domain/deliverables/diff-files.js";
import { quotePath } from "../../domain/text/quote-path.js";

export interface FrozenPatchView {
  /** The worker that made it (null for a stored record with no worker source). */
  worker: string | null;
  deliverable: DeliverablePointer;
  changeSet: ChangeSet | null;
  patch: string;
}

export interface ShownPatch {
  /** The patch as a terminal shows it: each binary section over a file that is text on both sides replaced by its decoded text. */
  text: string;
  /** The files shown decoded (each gets a warning line). */
  decoded: string[];
}

/**
 * What `docket diff` prints: the frozen patch, with the binary section of every file the human-side check decoded at
 * `done` (text at the base and after the patch, `decoded` on the file) shown as that text diff instead. The result
 * still applies to the base like the frozen bytes; `--json` keeps the frozen bytes themselves.
 */
export function shownPatch(view: FrozenPatchView): ShownPatch {
  const files = view.changeSet?.files ?? [];
  if (!files.some((f) => f.binary && f.decoded !== undefined)) return { text: view.patch, decoded: [] };
  const sections = splitSections(view.patch);
  const parsed = parseDiffSections(view.patch);
  if (sections.length !== parsed.length || parsed.length !== files.length) return { text: view.patch, decoded: [] };
  const decoded: string[] = [];
  const text = sections.map((section, k) => {
    const f = files[k]!;
    const binaryAt = section.indexOf("\nGIT binary patch\n");
    if (!f.binary || f.decoded === undefined || f.path !== parsed[k]!.path || binaryAt === -1) return section;
    decoded.push(f.path);
    const gone = parsed[k]!.status === "deleted";
    return `${section.slice(0, binaryAt + 1)}--- ${quotePath(`a/${f.path}`)}\n+++ ${gone ? "/dev/null" : quotePath(`b/${f.path}`)}\n${f.decoded.endsWith("\n") ? f.decoded : `${f.decoded}\n`}`;
  }).join("");
  return { text, decoded };
}

/** The patch cut at each line that starts a `diff --git` section (no other line of a patch can start so). */
function splitSections(patch: string): string[] {
  const starts = [0];
  for (let at = patch.indexOf("\ndiff --git "); at !== -1; at = patch.indexOf("\ndiff --git ", at + 1)) starts.push(at + 1);
  return starts.map((s, k) => patch.slice(s, starts[k + 1] ?? patch.length));
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
