// The pi card's keys come from the card's structured actions: Combine gets `c` exactly when the engine offers it, and
// `r` requests changes with the version's draft comments, which the card lists.

import { test } from "node:test";
import assert from "node:assert/strict";
import { reviewView } from "../../../../src/engine/review/review-view.js";
import { cardKeys, formatLegend } from "../../../../src/surfaces/pi/parent/card-keys.js";
import { cardBody } from "../../../../src/surfaces/pi/parent/card-lines.js";
import { plainPaint } from "../../../../src/surfaces/pi/parent/paint.js";
import { addComment } from "../../../../src/engine/review/comments.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";

test("a version overlapping another's offers c combine with that worker; a version overlapping nobody has no c", (t) => {
  const g = reviewGround(t);
  const a = reviewWorker(t, g);
  const b = reviewWorker(t, g);
  const loner = reviewWorker(t, g);
  publish(g, a, { "src/app.txt": appWith({ 12: "twelve by a" }) });
  publish(g, b, { "src/app.txt": appWith({ 14: "fourteen by b" }) });
  publish(g, loner, { "README.md": "a readme of its own\n" });
  const keys = cardKeys(reviewView(g.ctx, a.worker), { queued: false });
  const c = keys.find((k) => k.key === "c");
  assert.equal(c?.label, `combine with ${b.worker}`);
  assert.deepEqual(c?.intent.kind === "act" ? [c.intent.action.verb, c.intent.action.peer, c.intent.action.cli] : [], [
    "combine",
    b.worker,
    `docket combine worker-deliverable:${a.worker}:1 ${b.worker}`,
  ]);
  assert.ok(formatLegend(keys).includes(`c combine with ${b.worker}`));
  assert.equal(
    cardKeys(reviewView(g.ctx, loner.worker), { queued: false }).find((k) => k.key === "c"),
    undefined,
  );
});

test("with draft comments r reads request changes and the card lists them; without, r is revise", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 12: "twelve" }) });
  assert.equal(cardKeys(reviewView(g.ctx, w.worker), { queued: false }).find((k) => k.key === "r")?.label, "revise");
  addComment(g.ctx, { target: w.worker, location: "src/app.txt:12", text: "name it" });
  addComment(g.ctx, { target: w.worker, location: "src/app.txt", text: "and test it" });
  const view = reviewView(g.ctx, w.worker);
  assert.equal(cardKeys(view, { queued: false }).find((k) => k.key === "r")?.label, "request changes (2 comments)");
  const body = cardBody(view, plainPaint, 100).join("\n");
  assert.match(
    body,
    /Draft comments \(2; r sends them\)\n {2}cm1 src\/app\.txt:12 \(new\)\n {4}name it\n {2}cm2 src\/app\.txt \(whole file\)\n {4}and test it/,
  );
});
