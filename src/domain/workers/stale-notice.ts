// When a notification for the human is already out of date: what it announces was settled before anyone saw it.
// A parent shows those as one "N older notices" line instead of replaying them.

export interface NoticeFacts {
  /** `question`, `blocked`, `ready`, `failed`, `outcome`, … */
  kind: string;
  /** The worker it is about was deleted (null worker: not about a worker). */
  workerDeleted: boolean;
  /** For `ready`: the version it announces was judged (approve, reject, promote) or is no longer current. */
  versionSettled: boolean;
  /** The worker's open questions now. */
  openQuestions: number;
  /** The worker's persisted state now, and whether the human has reviewed it. */
  workerState: string | null;
  reviewed: boolean;
}

export function isStaleNotice(f: NoticeFacts): boolean {
  if (f.workerDeleted) return true;
  if (f.kind === "ready") return f.versionSettled;
  if (f.kind === "question" || f.kind === "escalated") return f.openQuestions === 0;
  if (f.kind === "failed") return f.workerState !== "failed" || f.reviewed;
  // A stuck worker or a refused call is old news once the worker reached an end (a version, a failure, an exit).
  if (f.kind === "stuck" || f.kind === "refused")
    return f.workerState === "ready" || f.workerState === "failed" || f.workerState === "ended";
  return false; // item reports (blocked, outcome) stand until dismissed
}
