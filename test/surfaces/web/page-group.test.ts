// Claim: in a real Chromium, a best-of group's page (linked from the queue) shows its candidates side by side — one
// still working says so, worker text stays text under the strict CSP — and its Choose button records the approval and
// the not-chosen decisions of exactly the versions shown; a candidate that published since makes the click refuse.

import { test } from "node:test";
import assert from "node:assert/strict";
import { decisionsForWorker } from "../../../src/ledger/review/decisions.js";
import { browser, watchSideEffects } from "../../support/browser.js";
import { groupGround } from "../../support/group-fixture.js";
import { appWith, publish } from "../../support/review-fixture.js";
import { waitFor } from "../../support/wait.js";
import { signedIn, webServer } from "../../support/web.js";

const HOSTILE = "evil<img src=x onerror=alert(1)>.txt";

test("the group page compares the candidates, escapes their text, and Choose records the choice", {
  timeout: 120_000,
}, async (t) => {
  const { g, workers } = groupGround(t, 3);
  const [w1, w2] = workers;
  publish(g, w1!, { "src/app.txt": appWith({ 3: "three by w1" }), [HOSTILE]: "x\n" });
  const v2 = publish(g, w2!, { "src/app.txt": appWith({ 3: "three by w2" }), "w2.txt": "only w2\n" });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, "/");
  const seen = watchSideEffects(page, web.origin);
  await page.click('a[href="/group/b1"]');
  await page.waitForSelector(".compare .candidate");
  const csp = (await page.request.get(`${web.origin}/group/b1`)).headers()["content-security-policy"] ?? "";
  assert.match(csp, /script-src 'self'/, "the page keeps its strict CSP");
  const columns = await page.$$eval(".compare .candidate", (cs) =>
    cs.map((c) => [c.getAttribute("data-worker"), c.querySelector(".pill")?.textContent]),
  );
  assert.deepEqual(columns, [
    ["w1", "ready"],
    ["w2", "ready"],
    ["w3", "still working"],
  ]);
  const w1Text = (await page.textContent('.candidate[data-worker="w1"]')) ?? "";
  assert.ok(w1Text.includes(HOSTILE), "the hostile file name is shown as text");
  assert.equal(await page.$(".candidate img"), null, "no element was made from worker text");
  assert.match((await page.textContent('.candidate[data-worker="w2"]')) ?? "", /w2\.txt \+1 −0 only here/);
  assert.match((await page.textContent("ul.overlap")) ?? "", /w1 \+ w2: src\/app\.txt/);
  assert.equal(await page.$('.candidate[data-worker="w3"] button.choose'), null, "nothing to choose of w3 yet");

  // w3 publishes after the page showed it still working: the click is refused, the page says why and reloads.
  publish(g, workers[2]!, { "src/other.txt": "alpha\nbeta\ngamma by w3\n" });
  await page.click('.candidate[data-worker="w2"] button.choose');
  await page.waitForSelector("#banner:not([hidden])");
  assert.match(
    (await page.textContent("#banner")) ?? "",
    /w3 published worker-deliverable:w3:1 after the comparison of b1 was shown to you/,
  );
  assert.deepEqual(decisionsForWorker(web.ctx.db, "w2"), [], "the refused choice recorded nothing");
  await page.waitForSelector('.candidate[data-worker="w3"] button.choose');

  await page.fill("#choose-reason", "w2's is smaller");
  await page.click('.candidate[data-worker="w2"] button.choose');
  const [approved] = await waitFor("the choice recorded", () => {
    const d = decisionsForWorker(web.ctx.db, "w2");
    return d.length > 0 ? d : undefined;
  });
  assert.deepEqual([approved!.verb, approved!.deliverable], ["approve", v2]);
  for (const w of ["w1", "w3"])
    assert.deepEqual(
      decisionsForWorker(web.ctx.db, w).map((d) => [d.verb, d.note]),
      [["not-chosen", "b1: w2's is smaller"]],
    );
  await page.waitForSelector('.candidate[data-worker="w2"] .pill.judgment');
  assert.equal(await page.textContent('.candidate[data-worker="w2"] .pill.judgment'), "chosen");
  assert.equal(await page.$("button.choose"), null, "a chosen group offers no more choices");

  await page.goto(`${web.origin}/fleet?all=1`);
  const tasks = await page.$$eval("table.fleet tr[data-worker]", (rows) =>
    rows.map((r) => [r.getAttribute("data-worker"), r.querySelector(".task")?.textContent]),
  );
  assert.deepEqual(
    tasks.filter(([w]) => ["w1", "w2", "w3"].includes(w ?? "")),
    [
      ["w1", "b1 · change the app"],
      ["w2", "b1 · change the app"],
      ["w3", "b1 · change the app"],
    ],
    "the fleet lists the group's candidates together, each led by its group",
  );
  assert.match(
    (await page.textContent("section.groups")) ?? "",
    /b1 change the app 3 candidates chose worker-deliverable:w2:1/,
  );
  assert.deepEqual(seen, {
    dialogs: [],
    // The browser logs the refused choice's answer (a refusal is 409); nothing else went wrong.
    errors: ["console: Failed to load resource: the server responded with a status of 409 (Conflict)"],
    foreign: [],
  });
});
