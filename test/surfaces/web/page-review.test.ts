// The review page in a real headless Chromium: the queue in verdict order, the card's frozen diff read line for line
// against the sidecar, plan coverage, hidden context, both diff views; screenshots go to .shots/ for a person to look at.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SourceHandoff } from "../../../src/domain/deliverables/deliverable.js";
import { verdictCard, verdictQueue } from "../../../src/engine/review/verdict.js";
import { readDeliverable } from "../../../src/files/workers/deliverables.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { browser, screenshot, watchSideEffects } from "../../support/browser.js";
import {
  appWith,
  askingWorker,
  publish,
  reviewGround,
  reviewWorker,
  type ReviewGround,
} from "../../support/review-fixture.js";
import type { ProtocolWorker } from "../../support/protocol-worker.js";
import { signedIn, webServer } from "../../support/web.js";

const PLAN = `## Goal
Greet people by name.

## Steps
1. Change the greeting (files: src/app.txt)
2. Add the helper
   files: src/helper.ts

## Verification
- npm test
`;

/** Makes `w` a Use → Implement worker of an approved plan: the handoff record and its byte-exact source file. */
function fromPlan(g: ReviewGround, w: ProtocolWorker, plan: string): void {
  const handoff: SourceHandoff = {
    sourceRef: "worker-deliverable:w90:1",
    sourceId: "worker-deliverable:w90",
    sourceVersion: 1,
    sourceWorker: "w90",
    sourceKind: "worker",
    approvingDecisionId: "dc90",
    useDecisionId: "dc91",
    approvedAt: "2026-03-01T09:00:00.000Z",
    sidecarPath: "",
    planAuthorized: true,
  };
  g.ctx.commands.run("test.handoff", { w: w.worker }, (tx) => updateWorker(tx, w.worker, { sourceHandoff: handoff }));
  writeFileSync(join(g.ctx.home.workerDir(w.worker), "source-deliverable.md"), plan);
}

/** The `+` and `-` lines of a frozen text patch, read straight from the sidecar's patch text. */
function changedLines(patch: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  for (const line of patch.split("\n")) {
    if (line.startsWith("+++ ") || line.startsWith("--- ")) continue;
    if (line.startsWith("+")) added.push(line.slice(1));
    else if (line.startsWith("-")) removed.push(line.slice(1));
  }
  return { added, removed };
}

test("the queue lists questions first and ready versions after, exactly as docket verdict does, and j/k/Enter open a card", async (t) => {
  const g = reviewGround(t);
  const ready = reviewWorker(t, g);
  publish(g, ready, { "src/app.txt": appWith({ 2: "two" }) });
  const asking = askingWorker(t, g, { question: "Which table should hold sessions?", options: ["users", "sessions"] });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web);
  const seen = watchSideEffects(page, web.origin);
  await page.waitForSelector(".q-item");
  const order = await page.$$eval(".q-item", (items) => items.map((i) => (i as HTMLElement).dataset.worker));
  assert.deepEqual(
    order,
    verdictQueue(g.ctx).map((c) => c.worker),
  );
  assert.deepEqual(await page.$$eval(".group h2", (h) => h.map((x) => x.textContent)), [
    "Questions",
    "Ready for judgment",
  ]);
  assert.equal(await page.textContent("#badge"), "2");
  await screenshot(page, "queue");
  await page.keyboard.press("j");
  assert.equal(await page.getAttribute(".q-item.selected", "data-worker"), ready.worker);
  await page.keyboard.press("k");
  assert.equal(await page.getAttribute(".q-item.selected", "data-worker"), asking.worker);
  await page.keyboard.press("j");
  await Promise.all([page.waitForURL(`${web.origin}/card/${ready.worker}/v/1`), page.keyboard.press("Enter")]);
  assert.match((await page.textContent("h1")) ?? "", new RegExp(`${ready.worker}\\s+change the app`));
  assert.deepEqual(seen, { dialogs: [], errors: [], foreign: [] });
});

test("a card shows the frozen diff line for line as the sidecar holds it, plan coverage, and hidden context on demand", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  fromPlan(g, w, PLAN);
  const v1 = publish(g, w, {
    "src/app.txt": appWith({ 2: "Hello, Ada", 30: "thirty" }),
    "src/extra.ts": "export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n",
  });
  const sidecar = readDeliverable(g.ctx.home, w.worker, 1);
  assert.equal(sidecar.ok, true);
  const expected = changedLines(sidecar.ok ? sidecar.deliverable.changeSet!.patch : "");
  const card = verdictCard(g.ctx, w.worker);
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}`);
  const seen = watchSideEffects(page, web.origin);
  await page.waitForSelector("table.diff");

  assert.deepEqual(
    await page.$$eval("table.diff.unified tr.a td.c", (cells) => cells.map((c) => c.textContent)),
    expected.added,
  );
  assert.deepEqual(
    await page.$$eval("table.diff.unified tr.d td.c", (cells) => cells.map((c) => c.textContent)),
    expected.removed,
  );
  assert.deepEqual(await page.$$eval(".tree a .tp", (a) => a.map((x) => x.textContent)), [
    "src/app.txt",
    "src/extra.ts",
  ]);
  assert.equal(await page.textContent(".cov-line"), card.detail.planCoverage);
  assert.match(card.detail.planCoverage!, /1\/2 planned files touched · 1 untouched · 1 off-plan/);
  assert.deepEqual(await page.$$eval(".cov-row.untouched code", (c) => c.map((x) => x.textContent)), ["src/helper.ts"]);
  assert.deepEqual(await page.$$eval(".cov-row.off-plan code", (c) => c.map((x) => x.textContent)), ["src/extra.ts"]);
  assert.ok((await page.$$("table.diff .hljs-keyword")).length > 0, "the TypeScript file is highlighted");
  assert.equal(await page.textContent(".card-head .ref"), v1.ref);
  await screenshot(page, "card-unified");

  const before = await page.$$eval("#file-0 tr.x", (r) => r.length);
  await page.click("#file-0 tr.gap button.expand >> nth=0");
  await page.waitForFunction((n) => document.querySelectorAll("#file-0 tr.x").length > n, before);
  const shown = await page.$$eval("#file-0 tr.x td.c", (c) => c.map((x) => x.textContent));
  for (let n = 6; n <= 26; n++)
    assert.ok(shown.includes(`line ${n}`), `context line ${n} was expanded from the base commit`);

  await page.keyboard.press("d");
  await page.waitForSelector(".files[data-mode=split] table.diff.split");
  assert.deepEqual(await page.$$eval("table.diff.split td.c.a", (c) => c.map((x) => x.textContent)), expected.added);
  assert.deepEqual(await page.$$eval("table.diff.split td.c.d", (c) => c.map((x) => x.textContent)), expected.removed);
  assert.equal(await page.getAttribute('.seg [data-view="split"]', "aria-pressed"), "true");
  await page.locator("#diff").scrollIntoViewIfNeeded();
  await screenshot(page, "card-split");
  await page.reload();
  await page.waitForSelector(".files[data-mode=split]");
  assert.deepEqual(
    seen,
    { dialogs: [], errors: [], foreign: [] },
    "the chosen view stays after a reload, with no error on the way",
  );
});

test("a 10,000-line patch stays usable: the big file waits behind a button, loads on click, and every row arrives", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const big = `${Array.from({ length: 10_000 }, (_, i) => `export const value${i} = ${i};`).join("\n")}\n`;
  publish(g, w, { "src/generated.ts": big, "src/app.txt": appWith({ 3: "three" }) });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}`);
  await page.waitForSelector("#file-1 .load-btn");
  assert.match((await page.textContent("#file-1 .load-btn")) ?? "", /Load diff \(10,000 lines\)/);
  assert.equal(await page.$$eval("#file-0 tr.a", (r) => r.length), 1, "the small file is rendered with the page");
  await page.click("#file-1 .load-btn");
  await page.waitForFunction(() => document.querySelectorAll("#file-1 tr.a").length === 10_000, undefined, {
    timeout: 60_000,
  });
  assert.equal(await page.textContent("#file-1 tr.a td.c >> nth=9999"), "export const value9999 = 9999;");
  assert.ok(
    (await page.$$("#file-1 .chunk.full")).length >= 49,
    "rows come in chunks the browser lays out only when seen",
  );
});

test("at 390 px the card and the queue still fit the width, in light and in dark", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const web = await webServer(t, g);
  const context = await browser(t, { width: 390, height: 844 });
  const page = await signedIn(context, web, `/card/${w.worker}`);
  await page.waitForSelector("table.diff");
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(await overflow(), 0, "nothing wider than the phone");
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.keyboard.press("t");
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(light, dark);
  await screenshot(page, "card-390-dark");
  await page.goto(`${web.origin}/`);
  assert.equal(await overflow(), 0);
  assert.equal(
    await page.evaluate(() => document.documentElement.dataset.theme),
    light === "rgb(255, 255, 255)" ? "dark" : "light",
    "the theme choice is kept across pages",
  );
  await page.goto(`${web.origin}/fleet`);
  await page.waitForSelector("table.fleet td.task");
  const fit = await page.evaluate(() => {
    const wrap = document.querySelector(".table-wrap")!;
    return {
      sideways: wrap.scrollWidth - wrap.clientWidth,
      task: document.querySelector("table.fleet td.task")!.getBoundingClientRect().width,
    };
  });
  assert.deepEqual(
    { page: await overflow(), table: fit.sideways },
    { page: 0, table: 0 },
    "the fleet fits the phone without scrolling sideways",
  );
  assert.ok(fit.task > 300, `the task has a line of its own (${fit.task} px wide)`);
  await screenshot(page, "fleet-390");
});
