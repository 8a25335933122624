// Recording what the human was shown, and holding a bare-id judgment to it.
// Views call recordShown after rendering; approve/reject/revise/promote --approve call assertShownBinding before writing.

import { deliverableRef } from "../../domain/deliverables/refs.js";
import {
  formatJudgedLine,
  shownBindingRefusal,
  type ShownBindingInput,
  type ShownSurface,
} from "../../domain/review/shown-binding.js";
import { lastShownOf, recordShownRow } from "../../ledger/review/shown.js";
import type { EngineContext } from "../context.js";
import { humanRefusal } from "../authority.js";
import type { ReviewTarget, TargetGuards } from "./target.js";

export interface ShownPointer {
  worker: string;
  ref: string;
  version: number;
}

/**
 * Notes that these versions were displayed to the human on `surface`. A view by a worker's process or the parent
 * agent's tools shows the human nothing, so it records nothing (else a worker could mark its own v2 as read).
 * Unchanged rows are not rewritten: a dock or page that re-renders the same version costs one indexed read.
 */
export function recordShown(
  ctx: EngineContext,
  versions: readonly (ShownPointer | null | undefined)[],
  surface: ShownSurface,
): void {
  if (ctx.readOnly || humanRefusal(ctx, "approve")) return;
  // Only a worker's own versions bind a bare id; combined versions and stored records are always named exactly.
  const own = versions.filter((v): v is ShownPointer => Boolean(v) && v!.ref === deliverableRef(v!.worker, v!.version));
  const fresh = own.filter((v) => {
    const last = lastShownOf(ctx.db, v.worker);
    return last?.ref !== v.ref || last.surface !== surface;
  });
  if (fresh.length === 0) return;
  const rows = fresh.map((v) => ({ worker: v.worker, ref: v.ref, version: v.version, surface }));
  // No idempotency key: the command is an upsert of "last shown", so running it again changes nothing.
  ctx.commands.run("review.shown", { rows }, (tx) => {
    for (const row of rows) recordShownRow(tx, row);
  });
}

/** Refuses (`version-not-shown`) a bare id whose current version is not the one last shown; the judged line, as notes. */
export function assertShownBinding(
  ctx: EngineContext,
  target: ReviewTarget,
  input: TargetGuards,
  verb: ShownBindingInput["verb"],
): string[] {
  const named = target.exact || input.version !== undefined || input.expectVersion !== undefined;
  const lastShown = lastShownOf(ctx.db, target.worker.id);
  const refused = shownBindingRefusal({ worker: target.worker.id, verb, current: target.pointer, named, lastShown });
  if (refused) throw refused;
  const line = formatJudgedLine(target.pointer.ref, target.pointer.version, lastShown, named);
  return line ? [line] : [];
}
