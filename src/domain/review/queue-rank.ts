// Where a worker stands in the review queue: open questions first, then unreviewed failures, then unjudged ready
// versions. One rule for every reader (the verdict queue, the page's live badge), so they never disagree.

export interface QueueFacts {
  openQuestions: number;
  state: string;
  reviewedAt: string | null;
  /** The worker has a current deliverable version. */
  hasVersion: boolean;
  /** That version has an approve, reject or promote decision. */
  judged: boolean;
}

/** 0 question · 1 failure · 2 ready; undefined when nothing needs judgment. */
export type QueueRank = 0 | 1 | 2;

export function queueRank(f: QueueFacts): QueueRank | undefined {
  if (f.openQuestions > 0) return 0;
  if (f.state === "failed" && f.reviewedAt === null) return 1;
  if (f.state === "ready" && f.hasVersion && !f.judged) return 2;
  return undefined;
}

export const QUEUE_GROUPS: Record<QueueRank, string> = { 0: "questions", 1: "failures", 2: "ready" };
