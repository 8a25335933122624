// Claim: a worker version, a combined version and a stored record are three kinds of one Reviewable: promotion, its
// preview, the frozen-patch read and Use take any of them through one path, their refusals come from the one rule, and a
// combined card's moves come from the one table every card's moves come from.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDocketError } from "../../../src/domain/errors.js";
import { formatJudgment, notApproved } from "../../../src/domain/review/approval.js";
import { confirmationRefused } from "../../../src/domain/review/confirmation.js";
import { cardMoves } from "../../../src/engine/review/card-moves.js";
import { combineChangeSets } from "../../../src/engine/review/combine.js";
import { frozenPatchOf } from "../../../src/engine/review/frozen-patch.js";
import { approve, reject, revise } from "../../../src/engine/review/judge.js";
import { planPromotion, promote } from "../../../src/engine/review/promote.js";
import { previewPromotion } from "../../../src/engine/review/promote-preview.js";
import { verdictCard } from "../../../src/engine/review/verdict.js";
import { saveFromWorker } from "../../../src/engine/store/save.js";
import { useForParent } from "../../../src/engine/handoff/use.js";
import { moveText } from "../../../src/domain/review/card-actions.js";
import { pairGround, publishBoth } from "../../support/combine-fixture.js";
import {
  appWith,
  decisionCount,
  gitStatus,
  publish,
  reviewGround,
  reviewWorker,
} from "../../support/review-fixture.js";

const APP = appWith({});
const refusedAs = (expected: Error) => (e: unknown) =>
  isDocketError(e) &&
  e.code === (expected as { code?: string }).code &&
  e.message === expected.message &&
  e.hint === (expected as { hint?: string }).hint;

function storedWithPatch(t: Parameters<typeof reviewGround>[0]) {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 12: "twelve" }) });
  approve(g.ctx, { target: w.worker });
  return { g, w, ref: saveFromWorker(g.ctx, { from: w.worker }).ref };
}

test("a stored record's promotion is refused for confirmation by the one rule, and is previewed like any version", (t) => {
  const { g, w, ref } = storedWithPatch(t);
  writeFileSync(join(g.project, "src/app.txt"), appWith({ 3: "parent three" }));
  const before = { status: gitStatus(g.project), decisions: decisionCount(g.ctx) };
  const plan = planPromotion(g.ctx, { target: ref });
  assert.equal(plan.needsConfirmation, true);
  const detail = plan.warnings.map((x) => x.text).join("; ");
  assert.throws(() => promote(g.ctx, { target: ref }), refusedAs(confirmationRefused("promote", ref, detail)));
  assert.deepEqual({ status: gitStatus(g.project), decisions: decisionCount(g.ctx) }, before, "nothing changed");

  const preview = previewPromotion(g.ctx, { target: ref });
  assert.deepEqual(
    [preview.ref, preview.root, preview.files, preview.approvedBy !== null],
    [ref, g.project, ["src/app.txt"], true],
  );
  assert.equal(preview.check.ok, true, "the record's frozen patch still applies to the changed checkout (other lines)");
  assert.equal(frozenPatchOf(g.ctx, ref).worker, w.worker, "a diff names the worker the record came from");
  const used = useForParent(g.ctx, { target: ref });
  assert.deepEqual(
    [used.decision?.worker, used.decision?.deliverable?.ref],
    [w.worker, ref],
    "Use reads the same resolved record",
  );
});

test("a stored record is never judged again: approve, reject and revise refuse it in its own words and record nothing", (t) => {
  const { g, ref } = storedWithPatch(t);
  const before = decisionCount(g.ctx);
  for (const verb of [approve, reject, revise]) {
    assert.throws(
      () => verb(g.ctx, { target: ref, note: "x" }),
      (e: unknown) =>
        isDocketError(e) && e.code === "stored-not-judged" && e.message.startsWith(`${ref} is a stored record`),
    );
  }
  assert.throws(
    () => frozenPatchOf(g.ctx, ref, 1),
    (e: unknown) => isDocketError(e) && e.code === "version-stored" && /a stored ref names its version/.test(e.message),
  );
  assert.equal(decisionCount(g.ctx), before);
});

test("a combined version's not-approved refusal is the one rule's, naming its exact ref and its pair", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 3: "three by w1" }) }, { "src/app.txt": appWith({ 30: "thirty by w2" }) });
  assert.equal(combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] }).outcome, "combined");
  const ref = "combined:w1+w2:1";
  assert.throws(
    () => promote(p.g.ctx, { target: ref, yes: true }),
    refusedAs(notApproved({ verb: "promote", ref, worker: "w1+w2", earlierApproved: [] })),
  );
  assert.throws(
    () => revise(p.g.ctx, { target: ref, note: "x" }),
    (e: unknown) => isDocketError(e) && e.code === "combined-no-revise",
  );
  assert.throws(
    () => frozenPatchOf(p.g.ctx, ref, 1),
    (e: unknown) => isDocketError(e) && e.code === "version-stored",
  );
  assert.throws(
    () => useForParent(p.g.ctx, { target: ref }),
    (e: unknown) => isDocketError(e) && e.code === "combined-no-use",
  );

  const preview = previewPromotion(p.g.ctx, { target: ref, approve: true });
  assert.deepEqual([preview.ref, preview.check.ok, preview.approvedBy], [ref, true, null]);
  const promoted = promote(p.g.ctx, { target: ref, approve: true, yes: true });
  assert.equal(promoted.workspace, "combined");
  const evidence = p.g.ctx.db
    .prepare("SELECT evidence_refs AS e FROM decisions WHERE id = ?")
    .get(promoted.approval!.id) as { e: string };
  assert.deepEqual(
    JSON.parse(evidence.e),
    [ref, "worker-deliverable:w1:1", "worker-deliverable:w2:1"],
    "approving with the promotion cites what a judge could see",
  );
});

test("a combined card's moves and judgment come from the one table and the one judgment line, open, approved and promoted", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 3: "three by w1" }) }, { "src/app.txt": appWith({ 30: "thirty by w2" }) });
  combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  const ref = "combined:w1+w2:1";
  const facts = {
    kind: "combined" as const,
    hasVersion: true,
    patch: true,
    planLike: false,
    questions: 0,
    failed: false,
    isolated: false,
  };
  const open = verdictCard(p.g.ctx, ref);
  assert.deepEqual(open.moves, cardMoves({ ...facts, approved: false, promoted: false }));
  assert.equal(open.detail.judgment, formatJudgment({ hasVersion: true }));
  const a = approve(p.g.ctx, { target: ref }).decision;
  const approved = verdictCard(p.g.ctx, ref);
  assert.deepEqual(approved.actions, cardMoves({ ...facts, approved: true, promoted: false }).map(moveText));
  assert.deepEqual(approved.actions, ["promote", "reject"]);
  assert.match(approved.detail.judgment, new RegExp(`^approved \\(${a.id}, `));
  const r = promote(p.g.ctx, { target: ref, yes: true }).decision;
  const promoted = verdictCard(p.g.ctx, ref);
  assert.deepEqual(promoted.moves, [], "a combined version offers nothing once its patch landed");
  assert.equal(promoted.detail.judgment, formatJudgment({ hasVersion: true, promotion: { id: r.id } }));
  // A worker's card offers from the same table: its kind keeps every move the facts allow.
  assert.deepEqual(cardMoves({ ...facts, kind: "worker", approved: true, promoted: false }).map(moveText), [
    "promote",
    "use --parent",
    "use --worker",
    "save",
    "revise",
    "reject",
  ]);
});
