// The host a worker runs on, on the web page, in a real headless Chromium: the fleet row and the card say
// `on <host>`, and the name, read from the ledger, is escaped as worker text (never markup).

import { test } from "node:test";
import assert from "node:assert/strict";
import { browser, watchSideEffects } from "../../support/browser.js";
import { appWith, publish, reviewGround, reviewWorker, runsOnHost } from "../../support/review-fixture.js";
import { signedIn, webServer } from "../../support/web.js";

const HOSTILE = `big-box<img src=x onerror="window.pwned=1">`;

test("the fleet and the card show the host a worker runs on, escaped", { timeout: 120_000 }, async (t) => {
  const g = reviewGround(t);
  const remote = reviewWorker(t, g);
  const local = reviewWorker(t, g);
  publish(g, remote, { "src/app.txt": appWith({ 3: "three" }) });
  // A host name read back from the ledger is shown as text whatever it holds (config names are plain words today).
  runsOnHost(g, remote, HOSTILE);
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, "/");
  const effects = watchSideEffects(page, web.origin);
  await page.goto(`${web.origin}/fleet`);
  await page.waitForSelector("table.fleet td.kind");
  const hosts = await page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("table.fleet tr[data-worker]")].map((tr) => [
        tr.getAttribute("data-worker"),
        tr.querySelector("td.kind .host")?.textContent ?? null,
      ]),
    ),
  );
  assert.deepEqual(
    hosts,
    { [remote.worker]: `on ${HOSTILE} (unreachable)`, [local.worker]: null },
    "no host in this config answers to that name: shown unreachable",
  );
  await page.goto(`${web.origin}/card/${remote.worker}`);
  await page.waitForSelector(".card-head .meta");
  assert.equal(
    await page.evaluate(() => document.querySelector(".card-head .pill.host")?.textContent ?? null),
    `on ${HOSTILE}`,
  );
  assert.equal(
    await page.evaluate(
      () => document.querySelectorAll("img").length + ((window as unknown as { pwned?: number }).pwned ?? 0),
    ),
    0,
    "the name was never markup",
  );
  await page.goto(`${web.origin}/card/${local.worker}`);
  await page.waitForSelector(".card-head .meta");
  assert.equal(
    await page.evaluate(() => document.querySelector(".card-head .pill.host")),
    null,
    "a worker of this machine names no host",
  );
  assert.deepEqual(effects, { dialogs: [], errors: [], foreign: [] });
});
