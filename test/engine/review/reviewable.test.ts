// Claim: a worker version and a combined version are one kind of reviewable thing: whether a version is open, judged
// or closed is answered by one rule (a reject later approved is open to Combine), and a combined version the queue lists
// opens as a review view (the web card and the pi overlay) with its actions bound to its own ref.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isDocketError } from "../../../src/domain/errors.js";
import { combineChangeSets } from "../../../src/engine/review/combine.js";
import { approve, reject } from "../../../src/engine/review/judge.js";
import { reviewView } from "../../../src/engine/review/review-view.js";
import { runAction } from "../../../src/engine/review/card-act.js";
import { verdictCard, verdictQueue } from "../../../src/engine/review/verdict.js";
import { pairGround, publishBoth } from "../../support/combine-fixture.js";
import { appWith } from "../../support/review-fixture.js";

const APP = appWith({});
const code = (c: string) => (e: unknown) => isDocketError(e) && e.code === c;

test("a version rejected and then approved is approved everywhere, and Combine takes it as the open version it is", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 3: "three by w1" }) }, { "src/app.txt": appWith({ 30: "thirty by w2" }) });
  reject(p.g.ctx, { target: "w1", note: "not yet" });
  const approved = approve(p.g.ctx, { target: "w1" }).decision;
  const card = verdictCard(p.g.ctx, "w1");
  assert.equal(card.approved, true);
  assert.match(card.detail.judgment, new RegExp(`^approved \\(${approved.id},`));

  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "combined", "the reject was superseded by the approval: the version is open");
  assert.match(verdictCard(p.g.ctx, "w1").detail.judgment, /^closed as combined into combined:w1\+w2:1/);
});

test("a version rejected last stays closed to Combine, and so does one combined already", (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 3: "three by w1" }) }, { "src/app.txt": appWith({ 30: "thirty by w2" }) });
  approve(p.g.ctx, { target: "w1" });
  const rejected = reject(p.g.ctx, { target: "w1" }).decision;
  assert.throws(
    () => combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] }),
    (e: unknown) => code("combine-source-closed")(e) && (e as Error).message.includes(`was rejected (${rejected.id})`),
  );
  approve(p.g.ctx, { target: "w1" });
  assert.equal(combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] }).outcome, "combined");
  assert.throws(
    () => combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] }),
    (e: unknown) => code("combine-source-closed")(e) && /was already combined/.test((e as Error).message),
  );
});

test("the combined version the queue lists opens as a review view, and its bound action judges that version", async (t) => {
  const p = pairGround(t, { "src/app.txt": APP });
  publishBoth(p, { "src/app.txt": appWith({ 3: "three by w1" }) }, { "src/app.txt": appWith({ 30: "thirty by w2" }) });
  assert.equal(combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] }).outcome, "combined");
  const [queued] = verdictQueue(p.g.ctx);
  assert.equal(queued?.deliverable?.ref, "combined:w1+w2:1");

  const bySubject = reviewView(p.g.ctx, queued!.worker); // what pi's overlay opens from the queue: the card's subject
  assert.equal(bySubject.card.deliverable?.ref, "combined:w1+w2:1");
  const view = reviewView(p.g.ctx, queued!.deliverable!.ref);
  assert.equal(view.card.deliverable?.ref, "combined:w1+w2:1");
  assert.equal(view.isCurrent, true);
  assert.equal(view.lastDecision, null, "nothing was decided on the combined version yet");
  assert.deepEqual(
    view.actions.map((a) => a.cli),
    ["docket approve combined:w1+w2:1", "docket promote combined:w1+w2:1 --approve", "docket reject combined:w1+w2:1"],
  );
  assert.match(view.files.map((f) => f.path).join(","), /src\/app\.txt/);

  const lines = (
    await runAction(p.g.ctx, {
      verb: "approve",
      worker: view.card.worker,
      version: view.card.deliverable!.version,
      lastDecision: view.lastDecision,
    })
  ).lines;
  assert.match(lines[0]!, /^\S+ approve combined:w1\+w2:1$/);
  const after = reviewView(p.g.ctx, "combined:w1+w2:1");
  assert.equal(after.card.approved, true);
  assert.equal(after.history.map((d) => d.verb).join(","), "approve");
  await assert.rejects(
    runAction(p.g.ctx, {
      verb: "reject",
      worker: view.card.worker,
      version: view.card.deliverable!.version,
      lastDecision: view.lastDecision,
    }),
    code("decision-landed"),
    "an action bound to the card before the approval is refused",
  );
});
