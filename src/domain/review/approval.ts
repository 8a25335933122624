// Generation-bound approval: whether one exact deliverable version {id, version, ref} is approved.
// Only the latest counting terminal judgment on that exact version decides, only a human approves, never widened (ADR-0003).

export interface DecisionRecord {
  id: string; at: string; actor: "human" | "parent-agent" | "system"; verb: string; worker: string;
  deliverableId?: string; deliverableVersion?: number; deliverableRef?: string;
  /** The sha256 of the bytes judged (null for decisions recorded before content was bound). */
  contentSha256?: string | null;
}

import { refusal } from "../errors.js";

/**
 * Judgments that settle a version; everything else (revise, answer, use, save…) never grants or revokes approval.
 * `combine` closes a version whose change set went into a combined one: settled, and never approved.
 */
export const TERMINAL_VERBS: readonly string[] = ["approve", "reject", "promote", "combine"];

/** All a parent agent may ever record: its answer to a consult, or the consult's escalation to the human (DESIGN §8a). */
export const PARENT_AGENT_VERBS: readonly string[] = ["answer", "escalate"];

/**
 * The rule every decision row passes before it is written: a parent agent answers or escalates consults and judges
 * nothing, so a parent-agent row can never approve (the ledger's trigger refuses the same rows a second time).
 */
export function assertActorMayRecord(actor: DecisionRecord["actor"], verb: string): void {
  if (actor === "parent-agent" && !PARENT_AGENT_VERBS.includes(verb)) {
    throw refusal("parent-agent-cannot-judge", `a parent agent may only answer or escalate a consult, not ${verb}; only the human judges, nothing was recorded`);
  }
}

/** Verbs that approve when a human records them; a promotion only ever happens to an approved version (or with --approve). */
const APPROVING_VERBS: readonly string[] = ["approve", "promote"];

/**
 * Returns the decision that approves exactly `pointer`, or undefined. `decisions` are in ledger order, oldest first
 * (the ledger's sequence is the authority: a wall clock can step backwards, a committed sequence cannot).
 * Rules: only rows naming the same id AND version AND ref count; the latest terminal row decides; an approve/promote
 * by a non-human actor neither grants nor revokes (it is skipped); a reject by any actor revokes; once combined, never again.
 */
export function approvalFor(decisions: DecisionRecord[], pointer: { id: string; version: number; ref: string }): DecisionRecord | undefined {
  let latest: DecisionRecord | undefined;
  for (const d of decisions) {
    if (d.deliverableId !== pointer.id || d.deliverableVersion !== pointer.version || d.deliverableRef !== pointer.ref) continue;
    if (!TERMINAL_VERBS.includes(d.verb)) continue;
    // A version closed as combined stays closed: its changes live on in the combined version, judged on its own.
    if (d.verb === "combine") return undefined;
    if (APPROVING_VERBS.includes(d.verb) && d.actor !== "human") continue;
    latest = d;
  }
  return latest !== undefined && APPROVING_VERBS.includes(latest.verb) ? latest : undefined;
}

/** True when `pointer` is approved by a human under the rules of `approvalFor`. */
export function isApproved(decisions: DecisionRecord[], pointer: { id: string; version: number; ref: string }): boolean {
  return approvalFor(decisions, pointer) !== undefined;
}
