// The shape of one version under review, whatever its kind (a worker's, a combined one, a stored record): what every
// verb reads, and the small per-kind hooks the one approve / reject / promote / diff / use path calls. Types only.

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import type { DocketError } from "../../domain/errors.js";
import type { Tx } from "../../ledger/core/runner.js";
import type { WorkspaceOutcome } from "./promotion.js";
import type { CombinedTarget } from "./combined.js";
import type { ReviewTarget } from "./target.js";
import type { ReviewWarning } from "./warnings.js";

export type JudgeVerb = "approve" | "reject";

/** What a verb asks of a version: each kind resolves for it, or refuses it in its own words (`verdict`: its card). */
export type ReviewVerb = JudgeVerb | "revise" | "promote" | "diff" | "use" | "verdict";

export interface Reviewable {
  kind: "worker" | "combined" | "stored";
  /** Whom its decisions are recorded under (and whose newest decision a card binds to). */
  subject: string;
  /** The worker a diff names as its author: a worker id, the pair key, or null (a stored record without one). */
  author: string | null;
  pointer: DeliverablePointer;
  /** The file read and the sha256 of its exact bytes (what a judgment records and an approval is checked against). */
  path: string;
  sha256: string;
  changeSet: ChangeSet | null;
  /** Refs a judge could see: the version, and its change set or its sources. */
  evidenceRefs: string[];
  /** Its exact text (what Use hands on) and outcome (what Implement checks is a plan). */
  body: string;
  outcome: string;
  /** The checkout its patch lands in, and the summary a promotion journals. */
  projectRoot: string;
  summary: string;
  /** The worker version behind it (a worker's kind only): what revise and the card read. */
  worker?: ReviewTarget;
  /** The combined version behind it (a combined kind only): what its card reads. */
  combined?: CombinedTarget;
  /** A verb this kind never takes (or an option it never takes), refused in its own words; undefined: it takes it. */
  refuses(verb: ReviewVerb | "--version" | "--approve"): DocketError | undefined;
  /** Before the command: the lines to say about what the human was shown (refused when it was not this version). */
  shown(verb: JudgeVerb | "promote"): string[];
  /** Inside the command, before anything is written: the version is still the one resolved and may take `verb`. */
  assertStill(tx: Tx, verb: JudgeVerb): void;
  /** Inside the command, after the decision row: what settles with the judgment. */
  settle(tx: Tx, verb: JudgeVerb): void;
  /** What to say after the judgment. */
  after(verb: JudgeVerb): string[];
  promotion: PromotionHooks;
  /** What Use asks of it (a combined version is never handed on: it refuses `use`). */
  use?: UseHooks;
}

/** What Use → Parent / Worker / Implement asks of each kind; the commands around them are written once (use.ts). */
export interface UseHooks {
  /** Inside the use command: the approval it stands on, still holding (re-checked for a worker's version). */
  authorize(tx: Tx, expectDecision: string | null | undefined): { approvingDecisionId: string; approvedAt: string };
  /** The worker a chip is queued for (null: a stored record's chip names none). */
  chipWorker: string | null;
  /** How the handoff brief names where the input came from. */
  from: string;
  /** The handoff record's provenance: the worker it came from, when it has one, and its kind. */
  sourceWorker?: string;
  sourceKind: "worker" | "stored";
}

/** What promotion asks of each kind; the checks, the command and the wording around them are written once. */
export interface PromotionHooks {
  /** Recorded: its approval is a decision in this ledger (promote --approve may record it); carried: the record's. */
  approval: { kind: "recorded" } | { kind: "carried"; decisionId: string };
  /** The hint of `nothing-to-promote`: what to do with a version that has no frozen patch. */
  instead: string;
  /** Checks of its own before anything is touched (the frozen patch's integrity, its tree, marker residue). */
  assertPromotable(): void;
  /** The warnings shown before it lands, and whether they need the human's confirmation. */
  warnings(): { warnings: ReviewWarning[]; needsConfirmation: boolean };
  /** Earlier versions of the same subject that were approved (the not-approved refusal names them). */
  earlierApproved(): number[];
  /** The workers its promotion is journalled for. */
  credited: string[];
  /** Lines the promote decision's note carries besides the shared ones. */
  notes: string[];
  /** Inside the promote command, after the decision row: the reviewed marks it settles. */
  settle(tx: Tx): void;
  /** After the command: what is reset (a worker's workspace; nothing for a combined version or a stored record). */
  reset(patch: string): { workspace: WorkspaceOutcome; notes: string[] };
  /** Lines said before the promotion's own line (an older version's). */
  preface: string[];
}
