// A worker's notes and consults on its card: the text card, the web card and the JSON detail show
// undismissed notes with their suggested recipients; a dismissed note leaves the card; a consult says its lane.

import { test } from "node:test";
import assert from "node:assert/strict";
import { consult, note } from "../../../src/engine/protocol/consult.js";
import { formatVerdictCard, verdictCard } from "../../../src/engine/review/verdict.js";
import { reviewView } from "../../../src/engine/review/review-view.js";
import { dismissAttention } from "../../../src/engine/talk/attention.js";
import { renderCard } from "../../../src/surfaces/web/pages/card.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";

test("a worker's undismissed notes are on its text and web cards with who they suggest; a dismissed one is gone", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const other = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const first = note(g.ctx, w, { text: "I renamed the <config> helper", to: [other.worker] });
  const second = note(g.ctx, w, { text: "tests need NODE_ENV=test" });
  note(g.ctx, other, { text: "not w's note" });

  const card = verdictCard(g.ctx, w.worker);
  assert.deepEqual(card.detail.notes, [
    { id: first.note, text: "I renamed the <config> helper", suggested: [other.worker] },
    { id: second.note, text: "tests need NODE_ENV=test", suggested: [] },
  ]);
  const text = formatVerdictCard(card);
  assert.ok(text.includes("Notes (for you; no model saw them)"), text.join("\n"));
  assert.ok(
    text.includes(
      `  ${first.note}: I renamed the <config> helper · suggested for ${other.worker} (docket broadcast --from ${first.note})`,
    ),
    text.join("\n"),
  );
  const page = renderCard(reviewView(g.ctx, w.worker), "unified").toString();
  assert.match(
    page,
    new RegExp(`<li data-note="${first.note}"><code>${first.note}</code> I renamed the &lt;config&gt; helper`),
  );

  dismissAttention(g.ctx, [first.notification]);
  assert.deepEqual(
    verdictCard(g.ctx, w.worker).detail.notes.map((n) => n.id),
    [second.note],
  );
});

test("a consult on the card says it is a consult and who holds it; its context is shown", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  consult(g.ctx, w, { question: "Which logger do we use?", context: "both pino and winston are imported" });
  const card = verdictCard(g.ctx, w.worker);
  const text = formatVerdictCard(card);
  assert.ok(
    text.some((l) => / Which logger do we use\? \(consult\)$/.test(l)),
    text.join("\n"),
  );
  assert.ok(text.includes("    context: both pino and winston are imported"), text.join("\n"));
  const page = renderCard(reviewView(g.ctx, w.worker), "unified").toString();
  assert.match(
    page,
    /Which logger do we use\? <span class="consult">consult<\/span><\/p><p class="q-context">context: both pino and winston are imported<\/p>/,
  );
});
