// `docket log`: counts per verb, the most recent decision rows, and decision debt within a time window.
// Reads only the append-only ledger rows; nothing here writes.

import { usageError } from "../../domain/errors.js";
import { parseDuration } from "../../domain/clock.js";
import {
  countDecisionsByVerb,
  listDecisionDebt,
  recentDecisions,
  type Decision,
  type DecisionDebt,
} from "../../ledger/review/decisions.js";
import type { EngineContext } from "../context.js";
import type { CommentAnchor } from "../../domain/review/comment-anchor.js";
import { commentsOfDecision } from "../../ledger/review/comments.js";

export interface DecisionLogInput {
  /** `7d`, `24h`, … (default 7d). */
  since?: string;
  limit?: number;
}

export interface DecisionLog {
  since: string;
  window: string;
  counts: Record<string, number>;
  debt: DecisionDebt[];
  decisions: Decision[];
  /** The review comments each revise decision sent, by decision id (only decisions that sent some). */
  comments: Record<string, LoggedComment[]>;
}

export interface LoggedComment {
  id: string;
  anchor: CommentAnchor;
  text: string;
}

/** The longest window `--since` takes: past it, a window is "everything" and its start date would not exist. */
export const MAX_LOG_WINDOW_DAYS = 36_500;

export function decisionLog(ctx: EngineContext, input: DecisionLogInput = {}): DecisionLog {
  // Exactly as given: an empty or padded window is refused, never read as the default.
  const window = input.since ?? "7d";
  const ms = /\s/.test(window) ? undefined : parseDuration(window);
  if (ms === undefined || ms <= 0)
    throw usageError("bad-duration", `--since takes a duration like 7d, 24h or 30m; got "${input.since}"`);
  if (ms > MAX_LOG_WINDOW_DAYS * 86_400_000) {
    throw usageError("bad-duration", `--since takes at most ${MAX_LOG_WINDOW_DAYS}d (100 years); got "${input.since}"`);
  }
  const since = new Date(ctx.clock.nowMs() - ms).toISOString();
  const decisions = recentDecisions(ctx.db, { since, limit: input.limit ?? 25 });
  const comments: Record<string, LoggedComment[]> = {};
  for (const d of decisions) {
    if (d.verb !== "revise") continue;
    const sent = commentsOfDecision(ctx.db, d.id);
    if (sent.length > 0) comments[d.id] = sent.map((c) => ({ id: c.id, anchor: c.anchor, text: c.text }));
  }
  return {
    since,
    window,
    counts: countDecisionsByVerb(ctx.db, since),
    debt: listDecisionDebt(ctx.db, since),
    decisions,
    comments,
  };
}
