// The fleet dashboard inside a real interactive pi: F8 opens it, Enter opens a worker's card and Esc comes back, `p`
// peeks, `t` tells; the message's delivery (queued → delivered → read) then advances in the dock by itself.

import { test } from "node:test";
import assert from "node:assert/strict";
import { claimInbox, markInboxRead } from "../../../../src/engine/talk/inbox.js";
import { wait } from "../../../../src/engine/protocol/protocol.js";
import { decisionsForWorker } from "../../../../src/ledger/review/decisions.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";
import { waitFor } from "../../../support/wait.js";

test("F8 opens the fleet; Enter opens a card and Esc returns; p peeks; t tells, and the dock follows the message to read", async (t) => {
  const g = reviewGround(t);
  const ready = reviewWorker(t, g);
  const asking = reviewWorker(t, g);
  publish(g, ready, { "src/app.txt": appWith({ 5: "five" }) });
  wait(g.ctx, asking, { question: "Which branch should I use?", options: ["main", "release"] });
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  await pi.until("the dock", (s) => s.includes(`? ${asking.worker}·general needs input`));

  pi.press("F8");
  const fleet = await pi.until("the dashboard", (s) =>
    s.includes("docket · fleet · 2 workers · this project, unsettled"),
  );
  assert.match(fleet, new RegExp(`▸ ${ready.worker} +✓ ready .* v1 .*change the app`));
  assert.match(
    fleet,
    new RegExp(`  ${asking.worker} +\\? needs input .* 1 .*change the app`),
    "open questions are counted",
  );
  assert.match(fleet, /enter card · p peek · t tell/);

  pi.press("p");
  await pi.until(
    "the peek panel",
    (s) => s.includes(`peek · ${ready.worker}`) && s.includes(`cannot peek at ${ready.worker}`),
  );
  pi.press("j");
  await pi.until(
    "the second row selected, the peek closed",
    (s) => new RegExp(`▸ ${asking.worker} `).test(s) && !s.includes("peek · w"),
  );
  pi.press("Enter");
  const card = await pi.until("the asking worker's card", (s) => s.includes(`docket · verdict · ${asking.worker}`));
  assert.match(card, /q\d+: Which branch should I use\?/);
  assert.match(card, /1\. main/);
  assert.match(card, /1–2 answer · t type an answer/);
  pi.press("2");
  const answered = await waitFor("the answer in the ledger", () =>
    decisionsForWorker(g.ctx.db, asking.worker).find((d) => d.verb === "answer"),
  );
  assert.equal(answered.option, "release");
  pi.press("Escape");
  await pi.until("back on the dashboard", (s) => s.includes("docket · fleet") && !s.includes("docket · verdict"));

  pi.press("t");
  await pi.until("the tell prompt", (s) =>
    s.includes(`Tell ${asking.worker} (through its inbox; it reads it on its next turn):`),
  );
  pi.type("MSG-MARKER carry on with release");
  pi.press("Enter");
  const told = await waitFor(
    "the message in the ledger",
    () =>
      g.ctx.db.prepare("SELECT id, delivery FROM messages WHERE body LIKE 'MSG-MARKER%'").get() as
        | { id: string; delivery: string }
        | undefined,
  );
  assert.equal(told.delivery, "queued");
  await pi.until("the dashboard again", (s) => s.includes("docket · fleet"));
  pi.press("Escape");
  await pi.until(
    "the queued message in the dock",
    (s) => !s.includes("docket · fleet") && s.includes(`✉ ${told.id} → ${asking.worker} · queued`),
  );

  const who = { worker: asking.worker, generation: asking.generation, runToken: asking.runToken };
  const claimed = claimInbox(g.ctx, who); // the worker's runtime takes its inbox
  assert.ok(claimed.some((m) => m.id === told.id));
  await pi.until("delivered, without reopening anything", (s) =>
    s.includes(`✉ ${told.id} → ${asking.worker} · delivered`),
  );
  markInboxRead(
    g.ctx,
    who,
    claimed.map((m) => m.id),
  ); // …and was seen reading it
  await pi.until("read", (s) => s.includes(`✉ ${told.id} → ${asking.worker} · read ✓`));
});
