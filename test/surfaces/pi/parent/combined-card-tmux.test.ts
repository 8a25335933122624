// The combined version's card opens inside a real interactive pi, by its ref and from the queue walk, with its frozen
// diff, and `a` approves that exact combined version (private tmux server, scripted model).

import { test } from "node:test";
import assert from "node:assert/strict";
import { decisionsForRef } from "../../../../src/ledger/review/decisions.js";
import { combinedPair } from "../../../support/combine-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";
import { waitFor } from "../../../support/wait.js";

test("a combined version's card opens in pi by its ref, and `a` approves that combined version", async (t) => {
  const { g, a, b, ref } = combinedPair(t);
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();

  pi.submit(`/docket verdict ${ref}`);
  const card = await pi.until(
    "the combined card with its keys",
    (s) => s.includes(`docket · verdict · ${a.worker}+${b.worker} v1`) && s.includes("a approve"),
  );
  assert.match(card, /src\/app\.txt/, "its frozen change set");
  pi.press("a");
  const approved = await waitFor("the approval of the combined version", () =>
    decisionsForRef(g.ctx.db, ref).find((d) => d.verb === "approve"),
  );
  assert.equal(approved.actor, "human");
});
