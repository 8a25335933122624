// Combine's preview on a card: the dry merge of two exact versions, measured before anything is chosen. Apart from
// combine.ts so a verdict queue loads no part of recording or resolving a combination.

import { formatMergeSummary } from "../../domain/review/combine.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { sourcesOf } from "./combine-sources.js";
import type { ReviewFacts } from "./review-facts.js";

export interface CombinePreview {
  with: string;
  task: string;
  /** `merges clean, 2 files` / `2 conflicts in 1 file`, or why it cannot be combined. */
  text: string;
  possible: boolean;
}

/**
 * The dry merge a card shows before anything is chosen: nothing is recorded and no file of the home is written.
 * `facts` shares one dry merge per pair of exact versions across a review run (both cards of a pair ask for it).
 */
export function previewCombine(ctx: EngineContext, mine: string, other: string, facts?: ReviewFacts): CombinePreview {
  const task = requireWorker(ctx.db, other).task;
  try {
    ctx.git.assertMergeTreeGit();
    const s = sourcesOf(ctx, [mine, other]);
    const dry = () =>
      ctx.git.withMerge(s[0].target.worker.projectRoot, s[0], s[1], (m) => formatMergeSummary(m.summary), {
        dry: true,
      });
    const text = facts ? facts.dryMerge([s[0].ref, s[1].ref], dry) : dry();
    return { with: other, task, text, possible: true };
  } catch (error) {
    if (
      (error as { category?: string }).category === undefined ||
      (error as { category?: string }).category === "internal"
    )
      throw error;
    return {
      with: other,
      task,
      text: `cannot combine: ${(error as Error).message.replace(/; nothing (changed|was frozen)$/, "")}`,
      possible: false,
    };
  }
}
