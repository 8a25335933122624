// A version the human sent back reads the same in pi as in `ls`: after a revise the dock line, its footer and the F8
// fleet say `revising` (the one rule in engine/workers/view.ts), not `ready`, until the next version lands.

import { test } from "node:test";
import assert from "node:assert/strict";
import { revise } from "../../../../src/engine/review/judge.js";
import { listWorkers } from "../../../../src/engine/workers/view.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";

test("after a revise the pi dock, its footer and the F8 fleet say revising, as ls does; the next version is ready again", async (t) => {
  const g = reviewGround(t);
  const sent = reviewWorker(t, g);
  const other = reviewWorker(t, g);
  publish(g, sent, { "src/app.txt": appWith({ 2: "two" }) });
  publish(g, other, { "src/app.txt": appWith({ 7: "seven" }) });
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  await pi.until(
    "both ready in the dock",
    (s) =>
      s.includes(`✓ ${sent.worker}·general ready`) &&
      s.includes(`✓ ${other.worker}·general ready`) &&
      s.includes("docket · 2 ready"),
  );

  revise(g.ctx, { target: sent.worker, note: "Keep line two as it was" });
  assert.equal(listWorkers(g.ctx).workers.find((w) => w.worker === sent.worker)?.state, "revising", "ls says revising");
  const dock = await pi.until("the dock says revising", (s) => s.includes(`↻ ${sent.worker}·general revising`));
  assert.ok(!dock.includes(`${sent.worker}·general ready`), dock);
  assert.ok(dock.includes(`✓ ${other.worker}·general ready`), dock);
  await pi.until("the footer counts it apart from ready", (s) => s.includes("docket · 1 ready · 1 revising"));

  pi.press("F8");
  const fleet = await pi.until("the dashboard", (s) => s.includes("docket · fleet · 2 workers"));
  assert.match(fleet, new RegExp(`${sent.worker} +↻ revising .* v1 `), fleet);
  assert.match(fleet, new RegExp(`${other.worker} +✓ ready .* v1 `), fleet);
  pi.press("Escape");
  await pi.until("the dashboard closed", (s) => !s.includes("docket · fleet"));

  publish(g, sent, { "src/app.txt": appWith({ 7: "seven", 9: "nine" }) });
  await pi.until(
    "the next version is ready again",
    (s) => s.includes(`✓ ${sent.worker}·general ready`) && s.includes("docket · 2 ready"),
  );
});
