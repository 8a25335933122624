// The review page, with the browser's notification permission granted, shows a notification for a new ready version and
// counts it in the tab title; with notify.web off it shows none.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { browser } from "../../support/browser.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { signedIn, webServer } from "../../support/web.js";
import { waitFor } from "../../support/wait.js";

type Shown = { title: string; tag: string | undefined }[];

/** Wraps the page's Notification so every one it shows is also recorded (the real one still runs). */
const RECORD = `(() => {
  const Real = window.Notification;
  window.__shown = [];
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__shown.push({ title, tag: options && options.tag }); }
  };
})();`;

async function openQueue(t: { after(fn: () => unknown): void }, web: boolean) {
  const g = reviewGround(t);
  writeFileSync(join(g.home, "config.json"), JSON.stringify({ notify: { web } }));
  const w = reviewWorker(t, g);
  const server = await webServer(t, g);
  const context = await browser(t);
  await context.grantPermissions(["notifications"], { origin: server.origin });
  await context.addInitScript(RECORD);
  const page = await signedIn(context, server);
  await page.waitForSelector("#live.on");
  assert.equal(await page.evaluate(() => Notification.permission), "granted");
  return { g, w, page, server };
}

test("a new ready version raises one browser notification naming it, and the tab title counts it", async (t) => {
  const { g, w, page, server } = await openQueue(t, true);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const shown = await waitFor(
    "the page's notification",
    async () => {
      const s = await page.evaluate(() => (window as unknown as { __shown: Shown }).__shown);
      return s.length > 0 ? s : undefined;
    },
    15_000,
  );
  assert.deepEqual(shown, [
    { title: `${w.worker} v${v1.version} is ready for judgment`, tag: `docket-${w.worker}-v${v1.version}` },
  ]);
  await waitFor("the title's count", async () => /^\(1\) /.test(await page.title()), 10_000);
  await new Promise((r) => setTimeout(r, 700)); // further pulses of the same state must not repeat it
  assert.equal((await page.evaluate(() => (window as unknown as { __shown: Shown }).__shown)).length, 1);
  await page.goto(`${server.origin}/card/${w.worker}`);
  assert.equal(
    await page.textContent(".card-head .spend"),
    "this version: 0 tokens · $0.00; worker so far: $0.00",
    "the card states the spend (none recorded yet)",
  );
});

test("with notify.web off the page shows no notification, though the title still counts", async (t) => {
  const { g, w, page } = await openQueue(t, false);
  publish(g, w, { "src/app.txt": appWith({ 4: "four" }) });
  await waitFor("the title's count", async () => /^\(1\) /.test(await page.title()), 15_000);
  await new Promise((r) => setTimeout(r, 700));
  assert.deepEqual(await page.evaluate(() => (window as unknown as { __shown: Shown }).__shown), []);
});
