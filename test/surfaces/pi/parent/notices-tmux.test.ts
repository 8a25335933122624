// Notices in a real interactive pi: what was settled while no parent ran (a judged version, an answered question) is
// one "older notices" line, news is information, nothing is replayed after a restart; the fleet key is the user's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { wait } from "../../../../src/engine/protocol/protocol.js";
import { answer, approve } from "../../../../src/engine/review/judge.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";

test("versions judged before pi started are folded, a fresh one is news, a restart repeats nothing, and the fleet opens on the user's key", async (t) => {
  const g = reviewGround(t);
  const judged = reviewWorker(t, g);
  const fresh = reviewWorker(t, g);
  const asker = reviewWorker(t, g);
  publish(g, judged, { "src/app.txt": appWith({ 2: "JUDGED-MARKER" }) });
  approve(g.ctx, { target: judged.worker });
  wait(g.ctx, asker, { question: "ANSWERED-MARKER which way?" });
  answer(g.ctx, { worker: asker.worker, text: "left" });
  publish(g, fresh, { "src/other.txt": "FRESH-MARKER\n" });
  writeFileSync(join(g.home, "config.json"), JSON.stringify({ pi: { fleetKey: "f9" } }));
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();

  const first = await pi.until("the fresh version announced", (s) =>
    s.includes(`docket · ${fresh.worker} is ready for review: worker-deliverable:${fresh.worker}:1`),
  );
  assert.match(first, /docket · 2 older notices \(already judged, answered or deleted\) not shown/);
  assert.doesNotMatch(
    first,
    new RegExp(`${judged.worker} is ready for review|ANSWERED-MARKER`),
    "settled notices are not replayed",
  );
  assert.doesNotMatch(first, /Warning:|Error:/, "news is information");

  pi.press("F9");
  await pi.until("the fleet on the configured key", (s) => s.includes("docket · fleet · 3 workers"));
  pi.press("Escape");
  await pi.until("the fleet closed", (s) => !s.includes("docket · fleet"));
  await pi.exit();

  await pi.start();
  await pi.until("the dock after the restart", (s) => s.includes(`✓ ${fresh.worker}·`) && s.includes("docket · "));
  const again = pi.screen();
  assert.doesNotMatch(again, /is ready for review|older notice/, "a restarted pi announces nothing already shown");
});
