// Lands one frozen patch in a checkout and records it in one command — the only path a promotion takes.
// A crash between `git apply` and the command leaves the patch applied and unrecorded: the retry recognises exactly
// this patch by a reverse-apply check and records it then, instead of refusing it as not applying.

import { internalError, refusal } from "../../domain/errors.js";
import type { Tx } from "../../ledger/core/runner.js";
import type { PatchProblem } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";

export interface FrozenApply<R> {
  /** The exact ref being promoted, for messages. */
  ref: string;
  root: string;
  patch: string;
  files: string[];
  /** The promotion's request (for the command runner) and its recording command, told whether this run applied it. */
  request: unknown;
  record: (tx: Tx, recovered: boolean) => R;
}

export interface FrozenApplied<R> {
  recorded: R;
  /** True when the patch was already in the checkout (an interrupted earlier promotion) and only the record was missing. */
  recovered: boolean;
}

/** The note a promotion decision carries when the retry found its patch already applied. */
export const RECOVERED_NOTE =
  "recorded on retry: the checkout already held exactly this frozen patch (a promotion interrupted before it was recorded, or the same change applied by hand)";

export function formatPatchProblems(problems: readonly PatchProblem[]): string {
  return problems.map((p) => `${p.path} (${p.reason})`).join("; ");
}

/**
 * Read-only, before anything is asked or applied: true when the checkout already holds exactly this patch (and not
 * its pre-image), false when it applies; a `patch-does-not-apply` refusal when it does neither.
 */
export function checkFrozenApplies(ctx: EngineContext, a: { ref: string; root: string; patch: string }): boolean {
  const check = ctx.git.checkPatch(a.root, a.patch);
  if (check.ok) return false;
  if (ctx.git.isPatchApplied(a.root, a.patch)) return true;
  throw doesNotApply(a, check.problems);
}

/** Read-only: does the checkout already hold exactly this patch (and not its pre-image)? */
export function alreadyApplied(ctx: EngineContext, root: string, patch: string): boolean {
  return !ctx.git.checkPatch(root, patch).ok && ctx.git.isPatchApplied(root, patch);
}

export function doesNotApply(a: { ref: string; root: string }, problems: readonly PatchProblem[]): Error {
  return refusal(
    "patch-does-not-apply",
    `${a.ref} does not apply to ${a.root}: ${formatPatchProblems(problems)}; nothing changed`,
    "see what changed with `git status`, then ask the worker to revise",
  );
}

/**
 * `git apply --check`, apply, then one command; a command that cannot commit reverses what this run applied.
 * When the patch does not apply forward but reverse-applies cleanly, it is already there: nothing is applied and
 * the command records it (`recovered`).
 */
export function applyFrozen<R>(ctx: EngineContext, a: FrozenApply<R>): FrozenApplied<R> {
  const recovered = checkFrozenApplies(ctx, a);
  if (!recovered) {
    const applied = ctx.git.applyPatch(a.root, a.patch);
    if (!applied.ok)
      throw refusal(
        "patch-does-not-apply",
        `${a.ref} does not apply to ${a.root}: ${formatPatchProblems(applied.problems)}; nothing changed`,
      );
  }
  try {
    return {
      recorded: ctx.commands.run("review.promote", a.request, (tx) => a.record(tx, recovered)).result,
      recovered,
    };
  } catch (error) {
    // What an earlier run applied is left as it was found; only what this run applied is taken back.
    if (recovered) throw error;
    const why = (error as Error).message;
    if (ctx.git.reversePatch(a.root, a.patch))
      throw refusal(
        "promotion-unrecorded",
        `the promotion of ${a.ref} could not be recorded (${why}); the applied patch was reversed, nothing changed`,
      );
    throw internalError(
      "promotion-unrecorded",
      `PROMOTION NOT RECORDED: ${a.ref} was applied to ${a.root} but could not be recorded (${why}) and could not be reversed; your checkout holds its changes to ${a.files.join(", ")}`,
      error,
    );
  }
}
