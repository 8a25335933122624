// Review comments on the page in a real Chromium: two drafts on the unified diff and one on side by side, kept in the
// ledger (a fresh server shows them), sent by "Request changes" as one message the worker receives; the next version's
// card shows each answered, still there or outdated. Comment text stays text (no markup runs).

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { done } from "../../../src/engine/protocol/protocol.js";
import { claimInbox } from "../../../src/engine/talk/inbox.js";
import { commentsOfWorker } from "../../../src/ledger/review/comments.js";
import { decisionsForWorker } from "../../../src/ledger/review/decisions.js";
import type { EngineContext } from "../../../src/engine/context.js";
import { browser, watchSideEffects } from "../../support/browser.js";
import { appWith, publish, reviewGround, reviewWorker, write } from "../../support/review-fixture.js";
import { waitFor } from "../../support/wait.js";
import { signedIn, webServer } from "../../support/web.js";

const HOSTILE = `<img src=x onerror=alert(1)> rename "these"`;

/** Waits for `n` comments on the worker in the ledger, then for the page to show the newest one (it reloads itself). */
async function drafted(page: Page, ctx: EngineContext, worker: string, n: number): Promise<string> {
  const rows = await waitFor(
    `${n} comment(s) on ${worker}`,
    () => {
      const all = commentsOfWorker(ctx.db, worker, ["draft", "sent", "deleted"]);
      return all.length >= n ? all : undefined;
    },
    20_000,
  );
  const id = rows[n - 1]!.id;
  await page.waitForSelector(`.files .cmt[data-comment="${id}"]`, { timeout: 20_000 });
  return id;
}

test("two comments on the unified diff and one side by side go to the worker as one revision; v2's card answers them", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, {
    "src/app.txt": appWith({ 10: "ten", 11: "eleven" }),
    "src/other.txt": "alpha\nBETA\ngamma\n",
  });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}?view=unified`);
  const seen = watchSideEffects(page, web.origin);

  await page.click('#file-0 td.n[data-side="new"][data-line="10"]');
  await page.fill(".cmt-form input[name=end]", "11");
  await page.fill(".cmt-form textarea", HOSTILE);
  await page.click('.cmt-form button[type="submit"]');
  const first = await drafted(page, web.ctx, w.worker, 1);
  assert.equal(await page.textContent(`.files .cmt[data-comment="${first}"] .cmt-text`), HOSTILE);
  assert.equal(await page.locator(".files .cmt img").count(), 0, "comment text is never markup");

  await page.click("#file-1 .cmt-file-btn");
  await page.fill(".cmt-form textarea", "needs a test");
  await page.click('.cmt-form button[type="submit"]');
  const second = await drafted(page, web.ctx, w.worker, 2);
  await page.click(`.files .cmt[data-comment="${second}"] .cmt-edit-btn`);
  await page.fill(`.cmt-edit[data-comment="${second}"] textarea`, "needs a test for BETA");
  await page.click(`.cmt-edit[data-comment="${second}"] button[type="submit"]`);
  await page.waitForFunction(
    (id) =>
      document.querySelector(`.files .cmt[data-comment="${id}"] .cmt-text`)?.textContent === "needs a test for BETA",
    second,
    { timeout: 20_000 },
  );

  await page.click('[data-view="split"]');
  await page.waitForSelector('.files[data-mode="split"] #file-1 td.n[data-side="old"][data-line="2"]');
  await page.click('#file-1 td.n[data-side="old"][data-line="2"]');
  await page.fill(".cmt-form textarea", "why drop beta?");
  await page.click('.cmt-form button[type="submit"]');
  const third = await drafted(page, web.ctx, w.worker, 3);
  assert.deepEqual(
    commentsOfWorker(web.ctx.db, w.worker).map((c) => [c.id, c.anchor, c.ref]),
    [
      [first, { file: "src/app.txt", side: "new", start: 10, end: 11 }, v1.ref],
      [second, { file: "src/other.txt", side: "new", start: null, end: null }, v1.ref],
      [third, { file: "src/other.txt", side: "old", start: 2, end: 2 }, v1.ref],
    ],
  );

  // A fresh server (a restart) reads the same drafts from the ledger; Request changes sends them there.
  const again = await webServer(t, g);
  const fresh = await signedIn(context, again, `/card/${w.worker}`);
  const seenFresh = watchSideEffects(fresh, again.origin);
  assert.equal(await fresh.locator(".files .cmt.draft").count(), 3);
  assert.match((await fresh.textContent('button.act[data-verb="revise"]')) ?? "", /Request changes \(3 comments\)/);
  await fresh.click('button.act[data-verb="revise"]');
  await fresh.fill('.panel[data-panel="revise"] textarea', "and tidy up");
  await fresh.click('.panel[data-panel="revise"] button[type="submit"]');
  const revised = await waitFor(
    "the revise decision",
    () => decisionsForWorker(again.ctx.db, w.worker).find((d) => d.verb === "revise"),
    20_000,
  );
  assert.deepEqual([revised.note, revised.deliverable], ["and tidy up", v1]);

  const inbox = claimInbox(g.ctx, { worker: w.worker, generation: w.generation, runToken: w.runToken });
  assert.equal(inbox.length, 1, "one message carries every comment");
  const body = inbox[0]!.body;
  for (const id of [first, second, third]) assert.match(body, new RegExp(`\\[${id}\\]`));
  assert.ok(body.includes(`[${first}] src/app.txt:10–11 (new)\n  > +ten\n  > +eleven\n  ${HOSTILE}`), body);
  assert.ok(body.includes(`[${third}] src/other.txt:2 (old)\n  > -beta\n  why drop beta?`), body);

  // v2: line 10 rewritten (the first comment's lines are gone), other.txt unchanged; the worker answers the first.
  write(w.workspace, { "src/app.txt": appWith({ 10: "TEN", 11: "eleven" }) });
  done(
    g.ctx,
    { worker: w.worker, generation: w.generation, runToken: w.runToken },
    {
      callId: "v2",
      body: "Revised.\n",
      outcome: "completed",
      summary: "v2",
      addressed: [{ comment: first, note: "renamed <b>both</b>" }],
    },
  );
  const v2 = await signedIn(context, again, `/card/${w.worker}`);
  const seenV2 = watchSideEffects(v2, again.origin);
  await v2.waitForSelector("#comments");
  assert.equal(await v2.getAttribute(`#comments .cmt[data-comment="${first}"]`, "data-status"), "outdated");
  assert.equal(
    await v2.textContent(`#comments .cmt[data-comment="${first}"] .cmt-answer`),
    `↳ ${w.worker}: renamed <b>both</b>`,
  );
  assert.equal(await v2.getAttribute(`#comments .cmt[data-comment="${third}"]`, "data-status"), "current");
  assert.equal(
    await v2.locator(`.files .cmt.prev[data-comment="${third}"]`).count(),
    1,
    "a comment whose lines still exist sits beside them",
  );
  assert.equal(
    await v2.locator(`.files .cmt.prev[data-comment="${first}"]`).count(),
    0,
    "an outdated one is only listed",
  );
  assert.equal(await v2.locator("b").count(), 0);
  assert.deepEqual(
    [seen, seenFresh, seenV2],
    [
      { dialogs: [], errors: [], foreign: [] },
      { dialogs: [], errors: [], foreign: [] },
      { dialogs: [], errors: [], foreign: [] },
    ],
  );
});
