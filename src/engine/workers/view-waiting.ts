// Since when a queue entry has waited for the human: a ready version since it was published, a question since it was
// asked, a failure since the row last changed. Never since a heartbeat, which moves the row's updatedAt.

import type { QueueRank } from "../../domain/review/queue-rank.js";
import { openQuestionsOf } from "../../ledger/workers/questions.js";
import type { EngineContext } from "../context.js";
import type { VerdictCard } from "../review/verdict-card.js";

export function waitingSince(ctx: EngineContext, card: VerdictCard, rank: QueueRank, updatedAt: string): string {
  if (rank === 0) {
    const asked = openQuestionsOf(ctx.db, card.worker)
      .map((q) => q.createdAt)
      .sort()[0];
    if (asked !== undefined) return asked;
  }
  if (rank === 2 && card.detail.deliverable) return card.detail.deliverable.createdAt;
  return updatedAt;
}
