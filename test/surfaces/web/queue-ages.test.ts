// The queue's ages count from when an entry began to wait for the human, in real Chromium: a version since it was
// published and a question since it was asked; heartbeats after that (which move the worker's row) reset neither.

import { test } from "node:test";
import assert from "node:assert/strict";
import { recordHeartbeat } from "../../../src/engine/workers/lifecycle.js";
import { browser } from "../../support/browser.js";
import {
  appWith,
  askingWorker,
  identityOf,
  publish,
  reviewGround,
  reviewWorker,
} from "../../support/review-fixture.js";
import { signedIn, webServer } from "../../support/web.js";

test("a version published three minutes ago and a question asked as long ago show 3m after fresh heartbeats", async (t) => {
  const g = reviewGround(t);
  const ready = reviewWorker(t, g);
  const publishedAt = g.clock.now();
  publish(g, ready, { "src/app.txt": appWith({ 2: "two" }) });
  const asking = askingWorker(t, g, { question: "Which table?", options: ["users", "sessions"] });
  g.clock.advanceMinutes(3);
  for (const w of [ready, asking]) recordHeartbeat(g.ctx, identityOf(w));
  assert.equal(
    g.ctx.db.prepare("SELECT updated_at FROM workers WHERE id = ?").pluck().get(ready.worker),
    g.clock.now(),
    "the heartbeat moved the row",
  );

  const web = await webServer(t, g, { clock: g.clock });
  const page = await signedIn(await browser(t), web);
  await page.waitForSelector(".q-item");
  const ages = await page.$$eval(".q-item", (items) =>
    items.map((i) => [(i as HTMLElement).dataset.worker, i.querySelector(".age")?.textContent]),
  );
  assert.deepEqual(Object.fromEntries(ages), { [ready.worker]: "3m", [asking.worker]: "3m" });
  assert.equal(
    await page.getAttribute(`.q-item[data-worker="${ready.worker}"] .age`, "title"),
    `waiting since ${publishedAt}`,
  );
});
