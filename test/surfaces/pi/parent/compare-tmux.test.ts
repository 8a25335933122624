// Claim: inside a real interactive pi, `/docket compare b1` opens the group's comparison in an overlay (recorded as shown
// on pi), a number key then Yes chooses that candidate through the one choose command, and F8's fleet lists the
// candidates together, each led by its group id.

import { test } from "node:test";
import assert from "node:assert/strict";
import { decisionsForWorker } from "../../../../src/ledger/review/decisions.js";
import { groupGround } from "../../../support/group-fixture.js";
import { appWith, publish } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";
import { waitFor } from "../../../support/wait.js";

test("/docket compare b1 shows the candidates; 2 then Yes chooses w2's version; F8 groups the candidates", async (t) => {
  const { g, workers } = groupGround(t, 3);
  const [w1, w2] = workers;
  publish(g, w1!, { "src/app.txt": appWith({ 4: "four by w1" }) });
  const v2 = publish(g, w2!, { "src/app.txt": appWith({ 4: "four by w2" }), "extra.txt": "w2 only\n" });
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();

  pi.press("F8");
  const fleet = await pi.until("the fleet", (s) => s.includes("docket · fleet"));
  assert.match(fleet, /w1 .*b1 · change the app/);
  assert.match(fleet, /w3 .*b1 · change the app/);
  pi.press("Escape");
  await pi.until("the fleet closed", (s) => !s.includes("docket · fleet"));

  pi.submit("/docket compare b1");
  const shown = await pi.until("the comparison", (s) => s.includes("docket · compare · b1"));
  assert.match(shown, /w2 · pi · .* · ready · worker-deliverable:w2:1/);
  assert.match(shown, /w3 · pi · .* · still working · no version yet/);
  assert.match(shown, /only here: extra\.txt/);
  assert.match(shown, /1–2 choose w1\/w2/);
  assert.equal(
    (g.ctx.db.prepare("SELECT shown_surface FROM worker_groups WHERE id = 'b1'").get() as { shown_surface: string })
      .shown_surface,
    "pi",
  );
  pi.press("2");
  await pi.until("the question", (s) => s.includes("Choose worker-deliverable:w2:1?"));
  pi.press("Enter");
  const [approved] = await waitFor("the choice in the ledger", () => {
    const d = decisionsForWorker(g.ctx.db, "w2");
    return d.length > 0 ? d : undefined;
  });
  assert.deepEqual([approved!.verb, approved!.deliverable], ["approve", v2]);
  assert.deepEqual(
    decisionsForWorker(g.ctx.db, "w1").map((d) => d.verb),
    ["not-chosen"],
  );
  await pi.until("the result in the chat", (s) => s.includes("as the choice of b1"));
});
