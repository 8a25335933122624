// The plan gate: whether a deliverable proposes work (a plan), and whether a launch discharges a kind's gate.
// Only Use → Implement of an approved, reviewed plan authorizes it (`planAuthorized`); a gated kind stays armed
// otherwise (docs/decisions/plans.md).

import type { Plan } from "./plan-contract.js";

/** A deliverable proposes work when it says so (outcome `proposal`) or its body parses as a plan. */
export function isPlanLike(outcome: string, plan: Plan | undefined): boolean {
  return outcome === "proposal" || plan !== undefined;
}

export type PlanGateState = "discharged" | "armed" | "none";

/** What an agent is told when a file edit is refused because its plan gate is armed (pi's tool hook, Claude's PreToolUse). */
export const PLAN_GATE_REFUSAL =
  "Refused by Docket: your plan gate is armed, so you may not change files yet. Present your plan (what you will change, in which files, how you will check it) with docket_wait and wait for the human's answer; then call this tool again.";

/** A kind without a gate has none; a gated kind is discharged only by an authorized plan, armed otherwise. */
export function resolvePlanGate(kind: { planGate: boolean }, planAuthorized: boolean): PlanGateState {
  if (!kind.planGate) return "none";
  return planAuthorized ? "discharged" : "armed";
}

/** True only when a reviewed handoff authorizes a plan AND the kind has a plan gate to discharge. */
export function isPlanGateDischarged(input: {
  kind: { planGate: boolean };
  handoff?: { planAuthorized: boolean };
}): boolean {
  return resolvePlanGate(input.kind, input.handoff?.planAuthorized ?? false) === "discharged";
}
