// What a promotion would do, shown before the click or key that applies it: the files, the warnings that need
// confirmation, and `git apply --check` against the parent checkout now. Read-only; nothing changes.

import type { PatchCheck } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";
import { planPromotion, type PromoteInput, type PromotionPlan } from "./promote.js";

export interface PromotionPreview extends Omit<PromotionPlan, "reviewable" | "patch"> {
  ref: string;
  check: PatchCheck;
}

export function previewPromotion(ctx: EngineContext, input: PromoteInput): PromotionPreview {
  const { reviewable, patch, ...plan } = planPromotion(ctx, input);
  return { ...plan, ref: reviewable.pointer.ref, check: ctx.git.checkPatch(plan.root, patch) };
}
