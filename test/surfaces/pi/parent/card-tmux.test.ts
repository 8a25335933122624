// The verdict card inside a real interactive pi (private tmux server, scripted model): the human reads the whole card
// while deciding, judges with one key, and sees results as information and refusals as errors.

import { test } from "node:test";
import assert from "node:assert/strict";
import { reject } from "../../../../src/engine/review/judge.js";
import { decisionsForWorker } from "../../../../src/ledger/review/decisions.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";
import { waitFor } from "../../../support/wait.js";

test("the card shows evidence and its one-key actions on one screen, and `a` approves the exact version shown", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(
    g,
    w,
    { "src/app.txt": appWith({ 3: "three, changed" }), "src/new.txt": "brand new\n" },
    "BODY-MARKER the whole text of what was done\n",
  );
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();

  pi.submit(`/docket verdict ${w.worker}`);
  const card = await pi.until(
    "the card with its keys",
    (s) => s.includes(`docket · verdict · ${w.worker} v1`) && s.includes("a approve"),
  );
  assert.match(card, /2 files · \+2 −1 · 2 hunks/, "the evidence: the frozen change set");
  assert.match(card, /\+1 −1 +src\/app\.txt/);
  assert.match(card, /\+1 −0 +src\/new\.txt \(added\)/);
  assert.match(card, /test: npm test: 3 pass/, "the worker's typed evidence");
  assert.match(card, /Worker says \(completed\)/);
  assert.match(card, /BODY-MARKER the whole text/, "the worker's body, in the card");
  assert.match(
    card,
    /a approve · p approve \+ promote · r revise · x reject · t tell · D discard · d diff/,
    "the actions, on the same screen",
  );

  pi.press("r");
  await pi.until("the revise prompt saying what it wants", (s) =>
    s.includes(`What should ${w.worker} change in v1? (sent to ${w.worker}; its next done becomes v2)`),
  );
  pi.press("Escape");
  await pi.until("the card again after cancelling", (s) => s.includes("a approve") && !s.includes("What should"));
  assert.deepEqual(decisionsForWorker(g.ctx.db, w.worker), [], "a cancelled prompt records nothing");

  pi.press("a");
  const approved = await waitFor("the approval in the ledger", () => decisionsForWorker(g.ctx.db, w.worker)[0]);
  assert.deepEqual(
    [approved.verb, approved.deliverable?.ref, approved.actor],
    ["approve", `worker-deliverable:${w.worker}:1`, "human"],
  );
  await pi.until(
    "the card again, now approved, offering promote and use",
    (s) =>
      s.includes(`✓ ${approved.id} approve worker-deliverable:${w.worker}:1`) &&
      /p promote · r revise · x reject · u use → parent\/worker/.test(s),
  );
  pi.press("Escape");
  const closed = await pi.until("the card closed", (s) => !s.includes("docket · verdict"));
  assert.match(
    closed,
    new RegExp(`${approved.id} approve worker-deliverable:${w.worker}:1`),
    "the result stays in the chat",
  );
  assert.doesNotMatch(closed, /Warning:|Error:/, "a result is information, not a warning");
});

test("a key on a card that went stale is refused as an error, nothing is recorded, and the card shows why", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/other.txt": "alpha\nBETA\ngamma\n" });
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  pi.submit("/docket item add typed in pi");
  await pi.until("the item's result", (s) => s.includes("t1 added (todo, revision 1)"));
  assert.doesNotMatch(pi.screen(), /Warning:/, "a plain success is not labelled a warning");

  pi.submit("/docket verdict");
  await pi.until(
    "the queue's first card",
    (s) => s.includes(`docket · verdict · ${w.worker} v1`) && s.includes("1 of 1 in the queue"),
  );
  const other = reject(g.ctx, { target: w.worker, note: "not this way" }); // the human's other terminal, meanwhile
  pi.press("a");
  const refused = await pi.until("the refusal on the card", (s) =>
    s.includes(`✗ ${w.worker}'s newest decision is ${other.decision.id}`),
  );
  assert.match(refused, /rejected \(/, "the card reloaded on the current state");
  assert.deepEqual(
    decisionsForWorker(g.ctx.db, w.worker).map((d) => d.verb),
    ["reject"],
    "the stale approval was not recorded",
  );
  pi.press("Escape");
  const closed = await pi.until("the card closed", (s) => !s.includes("docket · verdict"));
  assert.match(
    closed,
    new RegExp(`Error: docket: ${w.worker}'s newest decision is ${other.decision.id}`),
    "a refusal is an error",
  );
});
