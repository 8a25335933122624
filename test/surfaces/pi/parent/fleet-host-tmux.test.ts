// The host a worker runs on inside a real interactive pi: the dock line says `w<N>·<kind>@<host>` and the
// F8 fleet dashboard puts `@<host>` (unreachable when no host of the config answers) before the task; a worker of
// this machine shows neither. The name is read from the ledger and shown as text, its control bytes shown as symbols (␛).

import { test } from "node:test";
import assert from "node:assert/strict";
import { appWith, publish, reviewGround, reviewWorker, runsOnHost } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";

test("the dock and the F8 fleet show each worker's host", { timeout: 120_000 }, async (t) => {
  const g = reviewGround(t);
  const remote = reviewWorker(t, g);
  const local = reviewWorker(t, g);
  publish(g, remote, { "src/app.txt": appWith({ 4: "four" }) });
  publish(g, local, { "src/app.txt": appWith({ 6: "six" }) });
  runsOnHost(g, remote, "big-box\u001b[2J");
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  const dock = await pi.until(
    "the dock",
    (s) => s.includes(`${remote.worker}·general@big-box␛[2J ready`) && s.includes(`${local.worker}·general `),
  );
  assert.doesNotMatch(dock, new RegExp(`${local.worker}·general@`), "a worker of this machine names no host");

  pi.press("F8");
  const fleet = await pi.until("the dashboard", (s) => s.includes("docket · fleet · 2 workers"));
  assert.match(fleet, new RegExp(`${remote.worker} +✓ ready .* v1 .*@big-box␛\\[2J \\(unreachable\\) change the app`));
  assert.match(fleet, new RegExp(`${local.worker} +✓ ready .* v1 .* change the app`));
  assert.doesNotMatch(fleet, new RegExp(`${local.worker} .*@`));
  assert.doesNotMatch(pi.screenWithColours(), /\u001b\[2J/, "the name's control bytes never reach the terminal");
});
