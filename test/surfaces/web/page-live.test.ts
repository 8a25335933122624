// The page stays true to the ledger: a worker's done from another process appears without a reload, a decision made
// elsewhere reloads an open card, and an action on a card that is out of date is refused, explained and reloaded.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { decisionsForWorker } from "../../../src/ledger/review/decisions.js";
import { browser, screenshot, watchSideEffects } from "../../support/browser.js";
import { docket } from "../../support/docket-cli.js";
import { appWith, groundEnv, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import type { ReviewGround } from "../../support/review-fixture.js";
import { identityEnv, type ProtocolWorker } from "../../support/protocol-worker.js";
import { signedIn, webServer } from "../../support/web.js";

type T = { after(fn: () => void): void };

/** The real `docket` CLI in the project: the human's other terminal, or (with `as`) the worker's own process. */
function cli(t: T, g: ReviewGround, as?: ProtocolWorker) {
  const env = groundEnv(t, g, { ...(as && identityEnv(as)) });
  return (input: string, ...args: string[]) => docket({ env, cwd: as?.workspace ?? g.project, input }, ...args);
}

test("a worker's done from another process reaches an open queue page within moments, badge included, without a reload", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web);
  const seen = watchSideEffects(page, web.origin);
  await page.waitForSelector(".empty");
  await page.waitForSelector("#live.on");
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
  writeFileSync(join(w.workspace, "src/app.txt"), appWith({ 9: "nine" }));
  const done = cli(t, g, w)(
    "The change is done.\n",
    "worker",
    "done",
    "--outcome",
    "completed",
    "--summary",
    "changed line nine",
  );
  assert.equal(done.code, 0, done.stderr);
  await page.waitForSelector(`.q-item[data-worker="${w.worker}"]`, { timeout: 10_000 });
  assert.equal(await page.textContent("#badge"), "1");
  assert.match(await page.title(), /^\(1\) /);
  assert.equal(
    await page.evaluate(() => (window as unknown as { kept?: boolean }).kept),
    true,
    "the page updated in place",
  );
  assert.deepEqual(seen, { dialogs: [], errors: [], foreign: [] });
});

test("a decision made in another terminal reloads the open card, which then shows it", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 10: "ten" }) });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}`);
  await page.waitForSelector("#live.on");
  const approved = cli(t, g)("", "approve", w.worker, "--json");
  assert.equal(approved.code, 0, approved.stderr);
  const id = approved.json.decision.id as string;
  await page.waitForSelector("#banner:not([hidden])", { timeout: 10_000 });
  assert.equal(
    await page.textContent("#banner"),
    `decision ${id} landed on ${w.worker} meanwhile — reloading the card.`,
  );
  await page.waitForSelector(`body[data-last-decision="${id}"]`, { timeout: 10_000 });
  assert.match((await page.textContent(".judgment")) ?? "", new RegExp(`approved \\(${id}`));
});

test("an action on a card whose decision or version moved on is refused, says why, reloads, and records nothing", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 11: "eleven" }) });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}`);
  await page.route("**/events", (route) => route.abort()); // no live updates: the card goes stale on purpose
  await page.reload();
  await page.waitForSelector('button.act[data-verb="approve"]');
  const other = cli(t, g)("", "reject", w.worker, "--note", "not this way", "--json");
  assert.equal(other.code, 0, other.stderr);
  await page.click('button.act[data-verb="approve"]');
  await page.waitForSelector("#banner:not([hidden])");
  assert.match(
    (await page.textContent("#banner")) ?? "",
    new RegExp(
      `${w.worker}'s newest decision is ${other.json.decision.id} \\(reject worker-deliverable:${w.worker}:1, human\\), not none as on the card you acted on; nothing changed — reloading the card\\.`,
    ),
  );
  await screenshot(page, "card-stale");
  await page.waitForSelector(`body[data-last-decision="${other.json.decision.id}"]`, { timeout: 10_000 });
  assert.deepEqual(
    decisionsForWorker(web.ctx.db, w.worker).map((d) => d.verb),
    ["reject"],
    "the page's approval was not recorded",
  );

  publish(g, w, { "src/app.txt": appWith({ 11: "eleven", 12: "twelve" }) });
  await page.click('button.act[data-verb="revise"]');
  await page.fill('.panel[data-panel="revise"] textarea', "tighten it");
  await page.click('.panel[data-panel="revise"] button[type="submit"]');
  await page.waitForFunction(() =>
    /published v2 while you were reviewing v1/.test(document.getElementById("banner")?.textContent ?? ""),
  );
  assert.deepEqual(
    decisionsForWorker(web.ctx.db, w.worker).map((d) => d.verb),
    ["reject"],
  );
  assert.equal(
    (
      web.ctx.db
        .prepare("SELECT count(*) AS n FROM messages WHERE worker = ? AND kind = 'review_note'")
        .get(w.worker) as { n: number }
    ).n,
    0,
    "no note reached the worker",
  );
});
