// The review side's pulse: per worker the stamp a rendered card is bound to, and the queue in verdict order.
// Read on every ledger change by a live surface; two workers' stamps differ exactly when a card would differ.

import { queueRank, type QueueRank } from "../../domain/review/queue-rank.js";
import { pulseRows } from "../../ledger/review/pulse.js";
import type { EngineContext } from "../context.js";

export interface WorkerPulse {
  worker: string;
  state: string;
  version: number | null;
  lastDecision: string | null;
  openQuestions: number;
  rank: QueueRank | null;
  updatedAt: string;
}

export interface ReviewPulse {
  workers: WorkerPulse[];
  /** Workers needing judgment, in `docket verdict` order: questions, failures, ready; newest first within a group. */
  queue: { worker: string; version: number | null; rank: QueueRank }[];
}

export function reviewPulse(ctx: EngineContext): ReviewPulse {
  const workers: WorkerPulse[] = [];
  const ranked: { worker: string; version: number | null; rank: QueueRank; seq: number }[] = [];
  for (const r of pulseRows(ctx.db, ctx.projectRoot())) {
    const rank =
      queueRank({
        openQuestions: r.openQuestions,
        state: r.state,
        reviewedAt: r.reviewedAt,
        hasVersion: r.ref !== null,
        judged: r.judged,
      }) ?? null;
    workers.push({
      worker: r.worker,
      state: r.state,
      version: r.version,
      lastDecision: r.lastDecision,
      openQuestions: r.openQuestions,
      rank,
      updatedAt: r.updatedAt,
    });
    if (rank !== null) ranked.push({ worker: r.worker, version: r.version, rank, seq: r.seq });
  }
  ranked.sort((a, b) => a.rank - b.rank || b.seq - a.seq);
  return { workers, queue: ranked.map(({ worker, version, rank }) => ({ worker, version, rank })) };
}
