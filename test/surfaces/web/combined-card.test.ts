// The combined version's card opens on the review page from the queue's own link (`/card/w1+w2/v/1`), shows its
// frozen diff, and is judged there: approved by click, bound to that exact combined version (real Chromium).

import { test } from "node:test";
import assert from "node:assert/strict";
import { decisionsForRef } from "../../../src/ledger/review/decisions.js";
import { browser } from "../../support/browser.js";
import { combinedPair } from "../../support/combine-fixture.js";
import { waitFor } from "../../support/wait.js";
import { signedIn, webServer } from "../../support/web.js";

test("the queue's link to a combined version opens its card with its diff, and approving it there records it", async (t) => {
  const { g, a, b, combined, ref } = combinedPair(t);
  assert.equal(JSON.stringify(combined).includes(ref), true, JSON.stringify(combined));
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, "/");
  const link = page.locator(`a[href="/card/${a.worker}+${b.worker}/v/1"]`).first();
  await link.waitFor({ timeout: 20_000 });
  const response = page.waitForResponse((r) => r.url().endsWith(`/card/${a.worker}+${b.worker}/v/1`));
  await link.click();
  assert.equal((await response).status(), 200, "the combined card opens (it was a 404)");
  const body = (await page.textContent("main")) ?? "";
  assert.match(body, new RegExp(ref.replace("+", "\\+")));
  await page.waitForSelector("section.file table.diff", { timeout: 20_000 });
  const diff = (await page.textContent("main")) ?? "";
  assert.match(diff, /twelve by a/);
  assert.match(diff, /fourteen by b/);
  for (const bare of [`/card/${a.worker}+${b.worker}`, `/card/${a.worker}+${b.worker}/v/1/diff`]) {
    const r = await page.request.get(`${web.origin}${bare}`);
    assert.equal(r.status(), 200, `${bare}: ${await r.text()}`);
  }
  await page.click('button.act[data-verb="approve"]');
  await waitFor(
    "the combined version's approval",
    () => decisionsForRef(web.ctx.db, ref).find((d) => d.verb === "approve"),
    20_000,
  );
});
