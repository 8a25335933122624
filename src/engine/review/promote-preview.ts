// What a promotion would do, shown before the click or key that applies it: the files, the warnings that need
// confirmation, and `git apply --check` against the parent checkout now. Read-only; nothing changes.

import { checkPatch, type PatchCheck } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";
import { planPromotion, type PromoteInput, type PromotionPlan } from "./promote.js";

export interface PromotionPreview extends Omit<PromotionPlan, "target"> {
  ref: string;
  root: string;
  check: PatchCheck;
}

export function previewPromotion(ctx: EngineContext, input: PromoteInput): PromotionPreview {
  const { target, ...plan } = planPromotion(ctx, input);
  const root = target.worker.project_root;
  return { ...plan, ref: target.pointer.ref, root, check: checkPatch(root, target.deliverable.changeSet!.patch) };
}
