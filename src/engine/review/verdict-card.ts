// The verdict card's shape (the `--json` contract of `docket verdict`): what a worker's or a combined version's card
// holds, read by the card builders and every surface that shows one.

import type { DeliverablePointer, SourceHandoff, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import type { NetworkSummary } from "../../domain/workers/network-summary.js";
import type { PlanCoverage } from "../../domain/plans/plan-coverage.js";
import type { CardMove } from "../../domain/review/card-actions.js";
import type { SpendTotals } from "../../domain/workers/spend.js";
import type { CardComments } from "./card-comments.js";
import type { ReviewWarning } from "./warnings.js";

export interface VerdictQuestion {
  id: string;
  text: string;
  options: string[];
  recommend: string | null;
  risk: string | null;
  /** Asked through docket_consult: who holds it now, the worker's context, and why it was escalated to the human. */
  consult: { audience: "human" | "parent-agent"; context: string | null; escalation: string | null } | null;
}

export interface VerdictCard {
  worker: string;
  state: string;
  deliverable: DeliverablePointer | null;
  approved: boolean;
  warnings: ReviewWarning[];
  /** The moves as the `--json` contract names them (`approve`, `promote --approve`, `use --implement`, …). */
  actions: string[];
  /** What the card offers, as data; `actions` is these, named. */
  moves: CardMove[];
  /** Derived at review time from the handoff's source plan and the frozen patch; null when not a plan handoff. */
  planCoverage: PlanCoverage | null;
  /** Draft comments on this version, and the previous version's sent comments as this version answers them. */
  comments: CardComments;
  /** What the version on the card and the worker so far cost, from the agent's own records (null: not measurable). */
  spend: { version: SpendTotals | null; worker: SpendTotals } | null;
  /** Everything else the text card shows. */
  detail: {
    task: string;
    kind: string;
    exited: boolean;
    /** Its current generation runs inside Docket's sandbox; null for a combined version (no process of its own). */
    contained: boolean | null;
    /** The host of the user's config it runs on over ssh; null: this machine, or a combined version. */
    host: string | null;
    /** Its network and egress record (docs/containment.md); null for a combined version. */
    network: NetworkSummary | null;
    judgment: string;
    questions: VerdictQuestion[];
    lastError: string | null;
    /** What observers found about its current generation that still stands: blocked, stuck, a refused call. */
    findings: { kind: string; text: string; at: string }[];
    deliverable: WorkerDeliverable | null;
    invalid: string | null;
    handoff: SourceHandoff | null;
    planCoverage: string | null;
    /** The sha256 of the sidecar this card was built from: an action taken from the card is bound to these bytes. */
    sha256: string | null;
    /** The worker's notes (docket_note) not yet dismissed: for the human only, never in any model's context. */
    notes: CardNote[];
  };
}

export interface CardNote {
  id: string;
  text: string;
  suggested: string[];
}
