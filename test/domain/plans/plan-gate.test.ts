// The plan gate, computed once: a deliverable is a plan when it proposes or parses as one, and a gated kind is
// discharged only by an authorized plan (Use → Implement), armed otherwise; an ungated kind has none.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePlan } from "../../../src/domain/plans/plan-contract.js";
import { isPlanGateDischarged, isPlanLike, resolvePlanGate } from "../../../src/domain/plans/plan-gate.js";

test("a proposal or a body with numbered steps is a plan; findings in prose are not", () => {
  assert.equal(isPlanLike("proposal", undefined), true);
  assert.equal(isPlanLike("completed", parsePlan("## Steps\n1. Change a.txt\n")), true);
  assert.equal(isPlanLike("findings", parsePlan("The cache is never invalidated.\n")), false);
});

test("the gate: none without one, discharged only when a plan was authorized, armed otherwise", () => {
  assert.equal(resolvePlanGate({ planGate: false }, true), "none");
  assert.equal(resolvePlanGate({ planGate: true }, true), "discharged");
  assert.equal(resolvePlanGate({ planGate: true }, false), "armed");
  assert.equal(isPlanGateDischarged({ kind: { planGate: true } }), false);
  assert.equal(isPlanGateDischarged({ kind: { planGate: true }, handoff: { planAuthorized: true } }), true);
});
