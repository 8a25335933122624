// The comment commands on a real ledger and real sidecars: one idempotency key makes one comment, drafts survive a
// reopened engine, and a draft is bound to the bytes it was written on (a rewritten sidecar sends nothing).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDocketError } from "../../../src/domain/errors.js";
import { openEngine } from "../../../src/engine/open.js";
import { addComment, listComments } from "../../../src/engine/review/comments.js";
import { revise } from "../../../src/engine/review/judge.js";
import { appWith, decisionCount, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { ledgerRows } from "../../support/snapshot.js";

test("the same idempotency key adds one comment; the same key for other text is a conflict that changes nothing", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 5: "five" }) });
  const input = { target: w.worker, location: "src/app.txt:5", text: "why?", key: "page-1" };
  const first = addComment(g.ctx, input);
  const again = addComment(g.ctx, input);
  assert.equal(again.id, first.id);
  assert.equal(listComments(g.ctx, w.worker).comments.length, 1);
  assert.throws(
    () => addComment(g.ctx, { ...input, text: "other" }),
    (e: unknown) => isDocketError(e) && e.code === "idempotency-conflict",
  );
  assert.equal(listComments(g.ctx, w.worker).comments.length, 1);
});

test("drafts survive a reopened engine and are sent by its revise", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 5: "five" }) });
  addComment(g.ctx, { target: w.worker, location: "src/app.txt:5", text: "kept across a restart" });
  g.ctx.close();
  const reopened = openEngine({ env: { DOCKET_HOME: g.home }, cwd: g.project, clock: g.clock });
  t.after(() => reopened.close());
  assert.deepEqual(
    listComments(reopened, w.worker).comments.map((c) => [c.id, c.state, c.text]),
    [["cm1", "draft", "kept across a restart"]],
  );
  revise(reopened, { target: w.worker });
  assert.deepEqual(
    listComments(reopened, w.worker).comments.map((c) => c.state),
    ["sent"],
  );
});

test("a sidecar rewritten after a draft was written on it: revise is refused as tampered and nothing is sent or recorded", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 5: "five" }) });
  addComment(g.ctx, { target: w.worker, location: "src/app.txt:5", text: "on these bytes" });
  const sidecar = join(g.home, "fleet", w.worker, "deliverables", "v1.json");
  const d = JSON.parse(readFileSync(sidecar, "utf8"));
  writeFileSync(sidecar, `${JSON.stringify({ ...d, summary: `${d.summary} (edited)` }, null, 2)}\n`);
  const before = ledgerRows(g.ctx.home.ledger);
  assert.throws(
    () => revise(g.ctx, { target: w.worker, note: "go" }),
    (e: unknown) => isDocketError(e) && e.code === "deliverable-tampered",
  );
  assert.deepEqual(ledgerRows(g.ctx.home.ledger), before);
  assert.equal(decisionCount(g.ctx), 0);
});
