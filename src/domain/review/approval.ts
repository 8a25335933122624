// Every judged / approved / not-approved answer and its wording: the terminal verbs, which actors' judgments count,
// generation-bound approval of one exact {id, version, ref}, and the one "not approved" refusal
// (docs/decisions/immutable-deliverables.md, docs/decisions/authority.md).

import { refusal, type DocketError } from "../errors.js";

export const DECISION_ACTORS = ["human", "parent-agent", "system"] as const;
export type DecisionActor = (typeof DECISION_ACTORS)[number];

export interface DecisionRecord {
  id: string;
  at: string;
  actor: DecisionActor;
  verb: string;
  worker: string;
  deliverableId?: string;
  deliverableVersion?: number;
  deliverableRef?: string;
  /** The sha256 of the bytes judged (null for decisions recorded before content was bound). */
  contentSha256?: string | null;
}

/**
 * Judgments that settle a version; everything else (revise, answer, use, save…) never grants or revokes approval.
 * `combine` closes a version whose change set went into a combined one: settled, never approved, and final.
 * `not-chosen` settles a best-of candidate's version another was chosen over: judged, never approved, still open
 * (a later approval, or `promote --approve`, lands it).
 */
export const TERMINAL_VERBS = ["approve", "reject", "promote", "combine", "not-chosen"] as const;
export type TerminalVerb = (typeof TERMINAL_VERBS)[number];

/**
 * All a parent agent may ever record: its answer to a consult, or the consult's escalation to the human
 * (docs/decisions/authority.md).
 */
export const PARENT_AGENT_VERBS: readonly string[] = ["answer", "escalate"];

/**
 * The rule every decision row passes before it is written: a parent agent answers or escalates consults and judges
 * nothing, so a parent-agent row can never approve (the ledger's trigger refuses the same rows a second time).
 */
export function assertActorMayRecord(actor: DecisionActor, verb: string): void {
  if (actor === "parent-agent" && !PARENT_AGENT_VERBS.includes(verb)) {
    throw refusal(
      "parent-agent-cannot-judge",
      `your pi session's model may only answer or escalate a consult, not ${verb}; only you judge, nothing was recorded`,
    );
  }
}

/**
 * Whose terminal decision counts as a judgment, verb by verb: only a human approves (a promotion only ever happens to
 * an approved version, or with --approve, so it approves too); a reject or a combine by anyone settles. (A parent
 * agent cannot record any of them: assertActorMayRecord.)
 */
export const COUNTING_ACTORS: Readonly<Record<TerminalVerb, readonly DecisionActor[]>> = {
  approve: ["human"],
  promote: ["human"],
  reject: DECISION_ACTORS,
  combine: DECISION_ACTORS,
  "not-chosen": ["human"],
};

const isTerminal = (verb: string): verb is TerminalVerb => (TERMINAL_VERBS as readonly string[]).includes(verb);
const approves = (verb: string): boolean => verb === "approve" || verb === "promote";

/** The one rule every "is it judged?" answer uses (approval, the queue, the pulse, decision debt). */
export function countsAsJudgment(d: { verb: string; actor: DecisionActor }): boolean {
  return isTerminal(d.verb) && COUNTING_ACTORS[d.verb].includes(d.actor);
}

type Pointer = { id: string; version: number; ref: string };
const onPointer = (d: DecisionRecord, p: Pointer): boolean =>
  d.deliverableId === p.id && d.deliverableVersion === p.version && d.deliverableRef === p.ref;

/**
 * The latest counting judgment of exactly `pointer`, or undefined. `decisions` are in ledger order, oldest first (the
 * ledger's sequence is the authority: a wall clock can step backwards, a committed sequence cannot); only rows naming
 * the same id AND version AND ref count. A combine is final: its changes live on in the combined version, judged on its own.
 */
export function latestJudgment(decisions: readonly DecisionRecord[], pointer: Pointer): DecisionRecord | undefined {
  let latest: DecisionRecord | undefined;
  for (const d of decisions) {
    if (!onPointer(d, pointer) || !countsAsJudgment(d)) continue;
    latest = d;
    if (d.verb === "combine") break;
  }
  return latest;
}

/** The decision that approves exactly `pointer` (its latest counting judgment approves), or undefined. */
export function approvalFor(decisions: readonly DecisionRecord[], pointer: Pointer): DecisionRecord | undefined {
  const latest = latestJudgment(decisions, pointer);
  return latest !== undefined && approves(latest.verb) ? latest : undefined;
}

/**
 * What closed exactly `pointer`, or undefined while it is open: a promotion by anyone (its patch landed), else its latest
 * counting judgment when that rejects or combines it. A reject a later approval superseded no longer closes it.
 */
export function closureOf(decisions: readonly DecisionRecord[], pointer: Pointer): DecisionRecord | undefined {
  const promoted = decisions.filter((d) => d.verb === "promote" && onPointer(d, pointer)).at(-1);
  if (promoted) return promoted;
  const latest = latestJudgment(decisions, pointer);
  return latest && (latest.verb === "reject" || latest.verb === "combine") ? latest : undefined;
}

/** True when `pointer` is approved by a human under the rules of `approvalFor`. */
export function isApproved(decisions: readonly DecisionRecord[], pointer: Pointer): boolean {
  return approvalFor(decisions, pointer) !== undefined;
}

/** A version's judgment as the card says it, from the facts read for it. */
export interface JudgmentFacts {
  hasVersion: boolean;
  /** The approval that no longer holds because the sidecar's bytes changed since. */
  tamperedApproval?: { id: string };
  /** The promote decision (any actor: the patch landed). */
  promotion?: { id: string };
  approval?: { id: string; at: string };
  latest?: { id: string; verb: string };
  /** The combine decision that closed this version, and the combined version it went into. */
  combined?: { id: string; into: string };
  /** A revision the human asked of this version (no judgment yet): the worker's next done is the next version. */
  revision?: { id: string };
}

export function formatJudgment(f: JudgmentFacts): string {
  if (!f.hasVersion) return "no deliverable yet";
  if (f.tamperedApproval)
    return `approved (${f.tamperedApproval.id}) but its sidecar changed since: the approval no longer holds`;
  if (f.combined) return `closed as combined into ${f.combined.into} (${f.combined.id})`;
  if (f.promotion) return `promoted (${f.promotion.id})`;
  if (f.approval) return `approved (${f.approval.id}, ${f.approval.at})`;
  if (f.latest?.verb === "reject") return `rejected (${f.latest.id})`;
  if (f.latest?.verb === "not-chosen") return `not chosen (${f.latest.id}): another candidate of its group was`;
  if (f.revision) return `revision asked (${f.revision.id}): the worker's next done becomes the next version`;
  return "not judged";
}

/** What the refused verb needed approval for, and what the ledger says about the version. */
export interface NotApprovedInput {
  verb: "promote" | "use" | "save";
  ref: string;
  worker: string;
  /** Earlier versions of the same worker that were approved (an approval never carries over). */
  earlierApproved?: readonly number[];
  /** The latest counting judgment of this version, when it is a reject. */
  rejectedBy?: string;
}

/** The one "not approved" refusal: code `not-approved`, the version named, and how to approve it. */
export function notApproved(input: NotApprovedInput): DocketError {
  const { ref, worker } = input;
  switch (input.verb) {
    case "promote": {
      const earlier = input.earlierApproved ?? [];
      const carry =
        earlier.length > 0
          ? ` (v${earlier.join(", v")} was approved, but an approval never carries over to another version)`
          : "";
      return refusal(
        "not-approved",
        `${ref} is not approved${carry}; nothing changed`,
        `review it with \`docket verdict ${worker}\`, then \`docket approve ${ref}\` or promote with --approve`,
      );
    }
    case "use":
      return refusal(
        "not-approved",
        `Use needs an approved version: ${ref} is not approved; nothing changed`,
        `review it with \`docket verdict ${worker}\`, then \`docket approve ${ref}\``,
      );
    case "save": {
      const why = input.rejectedBy
        ? `it was rejected (${input.rejectedBy})`
        : "it has no approval on this exact version";
      return refusal(
        "not-approved",
        `${ref} is not approved for saving: ${why}`,
        `approve it first: \`docket approve ${worker}\``,
      );
    }
  }
}

/** Said beside a non-human actor's approve: recorded, never counted. */
export const UNCOUNTED_APPROVAL_NOTE =
  "an approval by your pi session's model is recorded but never authorizes promotion or use";

/** A non-human actor asked to approve where the approval would authorize at once (promote --approve). */
export function approvalNeedsHuman(): DocketError {
  return refusal(
    "approval-needs-human",
    "only you can approve; an approval by your pi session's model never authorizes promotion",
  );
}
