// Judging from the page in a real Chromium: approve, promote, revise and answer by clicking and by keys, each checked
// in the ledger (decision rows bound to the exact version) and in the checkout (the promoted patch, nothing else).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { EngineContext } from "../../../src/engine/context.js";
import { wait } from "../../../src/engine/protocol/protocol.js";
import { decisionsForWorker, type Decision } from "../../../src/ledger/review/decisions.js";
import { browser, watchSideEffects } from "../../support/browser.js";
import { appWith, gitStatus, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { waitFor } from "../../support/wait.js";
import { signedIn, webServer } from "../../support/web.js";

/** Waits until `worker` has `count` decisions, then returns them oldest first. */
const decisions = (ctx: EngineContext, worker: string, count: number): Promise<Decision[]> =>
  waitFor(
    `${count} decision(s) on ${worker}`,
    () => {
      const all = decisionsForWorker(ctx.db, worker);
      return all.length >= count ? all : undefined;
    },
    20_000,
  );

/** After an action the page reloads itself; wait for the fresh card (its binding names the newest decision). */
const reloadedWith = (page: Page, decision: string) =>
  page.waitForSelector(`body[data-last-decision="${decision}"]`, { timeout: 20_000 });

test("approve by key, then promote by click after the apply check: two decisions on v1 and the patch in the checkout", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 12: "twelve" }), "src/new.txt": "brand new\n" });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}`);
  const seen = watchSideEffects(page, web.origin);
  await page.waitForSelector('button.act[data-verb="approve"]');
  await page.keyboard.press("a");
  const [approved] = await decisions(web.ctx, w.worker, 1);
  assert.deepEqual([approved!.verb, approved!.actor, approved!.deliverable], ["approve", "human", v1]);
  await reloadedWith(page, approved!.id);
  assert.match((await page.textContent(".judgment")) ?? "", new RegExp(`approved \\(${approved!.id}`));
  assert.equal(gitStatus(g.project), "", "approval alone changes no file");

  await page.click('button.act[data-verb="promote"]');
  await page.waitForSelector(".promote-check .check.ok");
  assert.match((await page.textContent(".promote-check")) ?? "", /git apply --check passes/);
  assert.equal(gitStatus(g.project), "", "the check changes no file");
  await page.click(".promote-apply");
  const [, promoted] = await decisions(web.ctx, w.worker, 2);
  assert.deepEqual([promoted!.verb, promoted!.deliverable], ["promote", v1]);
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({ 12: "twelve" }));
  assert.equal(readFileSync(join(g.project, "src/new.txt"), "utf8"), "brand new\n");
  assert.deepEqual(gitStatus(g.project).split("\n").filter(Boolean).sort(), [" M src/app.txt", "?? src/new.txt"]);
  await reloadedWith(page, promoted!.id);
  assert.deepEqual(seen, { dialogs: [], errors: [], foreign: [] });
});

test("p opens the promotion check and Enter applies it with the approval; a warning needs the box ticked first", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const other = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 20: "twenty" }) });
  publish(g, other, { "src/app.txt": appWith({ 35: "thirty-five" }) });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}/v/1`);
  await page.waitForSelector('button.act[data-verb="promote"][data-with-approval="1"]');
  await page.keyboard.press("p");
  await page.waitForSelector(".promote-check .w-overlap");
  await page.keyboard.press("Enter");
  await page.waitForSelector(".toast.show.error");
  assert.match((await page.textContent(".toast")) ?? "", /Tick/);
  assert.equal(decisionsForWorker(web.ctx.db, w.worker).length, 0, "nothing was applied without the confirmation");
  assert.equal(gitStatus(g.project), "");
  await page.check(".promote-confirm");
  await page.focus(".promote-confirm");
  await page.keyboard.press("Enter");
  const [approval, promotion] = await decisions(web.ctx, w.worker, 2);
  assert.deepEqual([approval!.verb, promotion!.verb, promotion!.deliverable], ["approve", "promote", v1]);
  assert.match(promotion!.note ?? "", /confirmed despite: adjacent|confirmed despite: same file/);
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({ 20: "twenty" }));
});

test("r opens the revision note and Ctrl+Enter sends it; a question is answered by clicking an option and by typing", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 8: "eight" }) });
  const who = { worker: w.worker, generation: w.generation, runToken: w.runToken };
  wait(g.ctx, who, { question: "Which table?", options: ["users", "sessions"], recommend: "sessions" });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}`);
  await page.waitForSelector('button.opt[data-text="sessions"]');
  await page.click('button.opt[data-text="sessions"]');
  const [answered] = await decisions(web.ctx, w.worker, 1);
  assert.deepEqual([answered!.verb, answered!.option, answered!.deliverable], ["answer", "sessions", v1]);
  await reloadedWith(page, answered!.id);

  wait(g.ctx, who, { question: "And the index name?" });
  await page.waitForSelector(".answer-form input", { timeout: 20_000 }); // the open question arrives live
  await page.fill(".answer-form input", "idx_sessions_user");
  await page.press(".answer-form input", "Enter");
  const [, typed] = await decisions(web.ctx, w.worker, 2);
  assert.deepEqual([typed!.verb, typed!.option], ["answer", "idx_sessions_user"]);
  await reloadedWith(page, typed!.id);

  await page.keyboard.press("r");
  await page.waitForSelector('.panel[data-panel="revise"]:not([hidden]) textarea:focus');
  await page.keyboard.type("Use a prepared statement");
  await page.keyboard.press("Control+Enter");
  const [, , revised] = await decisions(web.ctx, w.worker, 3);
  assert.deepEqual([revised!.verb, revised!.note, revised!.deliverable], ["revise", "Use a prepared statement", v1]);
  const note = web.ctx.db
    .prepare("SELECT body FROM messages WHERE worker = ? AND kind = 'review_note'")
    .get(w.worker) as { body: string };
  assert.match(note.body, new RegExp(`Request revision for ${v1.ref} \\(version 1\\):\\nUse a prepared statement`));
});

test("Combine by click on a card whose version overlaps another's: the dry merge's count is on the card, one click freezes the combined version", async (t) => {
  const g = reviewGround(t);
  const a = reviewWorker(t, g);
  const b = reviewWorker(t, g);
  const va = publish(g, a, { "src/app.txt": appWith({ 12: "twelve by a" }) });
  const vb = publish(g, b, { "src/app.txt": appWith({ 14: "fourteen by b" }) });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${a.worker}`);
  assert.match(
    (await page.textContent("li.w-combine")) ?? "",
    new RegExp(`Combine with ${b.worker} · .* · merges clean, 1 file`),
  );
  const before = gitStatus(g.project);
  await page.click(`button.act[data-verb="combine"][data-peer="${b.worker}"]`);
  const [closed] = await decisions(web.ctx, a.worker, 1);
  assert.deepEqual([closed!.verb, closed!.actor, closed!.deliverable], ["combine", "human", va]);
  assert.equal(decisionsForWorker(web.ctx.db, b.worker)[0]?.deliverable?.ref, vb.ref);
  assert.match(closed!.option ?? "", /^combined:w\d+\+w\d+:1$/);
  assert.equal(gitStatus(g.project), before, "nothing reached the checkout");
});
