// Review-page rough edges in real Chromium: at 1280×900 a card's diff starts on the first screen under a long worker
// text; "Show the rest of the file" is offered only where the file goes on; the log's window field sits by its button.

import { test } from "node:test";
import assert from "node:assert/strict";
import { approve } from "../../../src/engine/review/judge.js";
import { browser } from "../../support/browser.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { signedIn, webServer } from "../../support/web.js";

const LONG_BODY = Array.from(
  { length: 80 },
  (_, i) => `Paragraph ${i + 1}: what was done and why, at some length.\n`,
).join("\n");

test("the diff starts above the fold at 900 px under a long full text, which starts folded; a short one stays open", async (t) => {
  const g = reviewGround(t);
  const long = reviewWorker(t, g);
  publish(g, long, { "src/app.txt": appWith({ 20: "twenty" }) }, LONG_BODY);
  const short = reviewWorker(t, g);
  publish(g, short, { "src/app.txt": appWith({ 21: "twenty-one" }) }, "A short note on the change.\n");
  const web = await webServer(t, g);
  const context = await browser(t, { width: 1280, height: 900 });

  const page = await signedIn(context, web, `/card/${long.worker}`);
  await page.waitForSelector("table.diff");
  const top = await page.$eval(".files", (e) => e.getBoundingClientRect().top);
  assert.ok(top < 900, `the diff starts at ${top} px, on the first screen`);
  assert.equal(await page.$eval("details.body", (d) => (d as HTMLDetailsElement).open), false);
  assert.match((await page.textContent("details.body summary")) ?? "", /^Full text \(\d+ lines\)$/);
  await page.click("details.body summary");
  assert.match(
    (await page.textContent("details.body article")) ?? "",
    /Paragraph 80:/,
    "the whole text is one click away",
  );

  const other = await signedIn(context, web, `/card/${short.worker}`);
  await other.waitForSelector("table.diff");
  assert.equal(
    await other.$eval("details.body", (d) => (d as HTMLDetailsElement).open),
    true,
    "a short text is shown open",
  );
});

test("'Show the rest of the file' appears only where the file goes on after the last hunk", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  // src/app.txt has 40 lines: a change on line 39 shows the file to its end; one on line 5 leaves 32 lines unshown.
  publish(g, w, {
    "src/app.txt": appWith({ 39: "thirty-nine" }),
    "src/other.txt": "alpha\nBETA\ngamma\n",
    "README.md": "hello\nand more\n",
  });
  const v2 = reviewWorker(t, g);
  publish(g, v2, { "src/app.txt": appWith({ 5: "five" }) });
  const web = await webServer(t, g);
  const context = await browser(t);

  const page = await signedIn(context, web, `/card/${w.worker}`);
  await page.waitForSelector("table.diff");
  const offered = await page.$$eval("section.file", (files) =>
    files.map((f) => [
      f.querySelector(".fh .tp, .tp")?.textContent ?? f.id,
      [...f.querySelectorAll("button.expand")].map((b) => b.textContent),
    ]),
  );
  assert.ok(offered.length === 3, JSON.stringify(offered));
  for (const [, buttons] of offered)
    assert.ok(
      !(buttons as string[]).some((b) => /rest of the file/.test(b)),
      `nothing more to show: ${JSON.stringify(offered)}`,
    );
  assert.ok(
    offered.some(([, buttons]) => (buttons as string[]).some((b) => /Show 35 unchanged lines/.test(b))),
    `the lines above line 39's hunk are still offered: ${JSON.stringify(offered)}`,
  );

  const more = await signedIn(context, web, `/card/${v2.worker}`);
  await more.waitForSelector("table.diff");
  assert.deepEqual(await more.$$eval("button.expand", (b) => b.map((x) => x.textContent)), [
    "↕ Show 1 unchanged line",
    "↕ Show the rest of the file",
  ]);
  await more.click("button.expand >> text=rest of the file");
  await more.waitForFunction(() =>
    [...document.querySelectorAll("tr.x td.c")].some((c) => c.textContent === "line 40"),
  );
});

test("the decision log's window field is short and its button sits beside it", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  approve(g.ctx, { target: w.worker });
  const web = await webServer(t, g);
  const page = await signedIn(await browser(t), web, "/log");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const input = await page.$eval("form.since input", (e) => e.getBoundingClientRect().toJSON());
    const button = await page.$eval("form.since button", (e) => e.getBoundingClientRect().toJSON());
    assert.ok(input.width < 200, `the field is ${input.width} px wide at ${width} px`);
    assert.ok(
      button.top < input.bottom && button.bottom > input.top,
      `the button is on the field's line at ${width} px`,
    );
    assert.ok(button.left >= input.right, "and after it");
  }
});
