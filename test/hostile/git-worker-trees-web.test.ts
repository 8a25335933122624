// Claim: the `.git`-swap attack (a gitdir of the worker's making whose config sets core.fsmonitor) runs nothing when the
// human promotes or discards from the review page in a real Chromium: the refusal is named on the page, no decision is
// recorded, the planted program never runs and the human's checkout is byte-identical.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { decisionsForWorker } from "../../src/ledger/review/decisions.js";
import { browser } from "../support/browser.js";
import {
  checkoutBytes,
  fakeGitDir,
  markerScript,
  type HostileGround,
  type HostileWorker,
} from "../support/hostile-worker.js";
import { appWith, publish, reviewGround, reviewWorker } from "../support/review-fixture.js";
import { tempDir } from "../support/temp.js";
import { signedIn, webServer } from "../support/web.js";

const TAMPERED = /\.git is no longer what Docket made at spawn/;

const errorToast = async (page: Page): Promise<string> => {
  await page.waitForSelector(".toast.show.error", { timeout: 20_000 });
  return (await page.textContent(".toast")) ?? "";
};

test("promote and discard from the review page refuse a swapped .git by name; the planted fsmonitor never runs", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 7: "seven" }) });
  // The worker swaps its own `.git` for a gitdir it made: HEAD at its base, the real objects, core.fsmonitor set.
  const ground = { project: g.project, marker: join(tempDir(t, "docket-hostile-web-"), "PWNED") } as HostileGround;
  const worker = { workspace: w.workspace } as HostileWorker;
  const script = markerScript(ground, w.workspace);
  writeFileSync(
    join(w.workspace, ".git"),
    `gitdir: ${fakeGitDir(ground, worker, `\tfsmonitor = ${script}\n\tworktree = ${g.project}\n`)}\n`,
  );
  const checkout = checkoutBytes(g.project);

  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web, `/card/${w.worker}`);
  await page.waitForSelector('button.act[data-verb="promote"]');
  await page.click('button.act[data-verb="promote"]');
  // The promotion check (planned before git apply --check) is refused by name in its panel; nothing can be applied.
  // The panel says "Checking the patch against your checkout…" until the check answers: wait for the answer.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll(".panel")].some((p) => {
        const text = (p.textContent ?? "").trim();
        return !(p as HTMLElement).hidden && text !== "" && !text.startsWith("Checking the patch");
      }),
    undefined,
    { timeout: 20_000 },
  );
  const shown = await page.$$eval(".panel", (ps) =>
    ps
      .filter((p) => !(p as HTMLElement).hidden)
      .map((p) => p.textContent ?? "")
      .join("\n"),
  );
  assert.match(shown, TAMPERED, `the promotion check names the refusal: ${shown}`);
  assert.equal(
    await page.$(".panel:not([hidden]) .promote-apply:not([disabled])"),
    null,
    "nothing is offered to apply",
  );
  assert.deepEqual(
    decisionsForWorker(web.ctx.db, w.worker)
      .map((d) => d.verb)
      .filter((v) => v === "promote"),
    [],
    "nothing was promoted",
  );

  await page.reload();
  await page.waitForSelector('button.act[data-verb="discard"]');
  await page.click('button.act[data-verb="discard"]');
  await page.click('.panel[data-panel="discard"] button[type="submit"]');
  assert.match(await errorToast(page), TAMPERED);
  assert.deepEqual(
    decisionsForWorker(web.ctx.db, w.worker)
      .map((d) => d.verb)
      .filter((v) => v === "promote" || v === "discard"),
    [],
    "nothing was promoted or discarded",
  );

  assert.equal(existsSync(ground.marker), false, "the planted fsmonitor never ran");
  assert.deepEqual(checkoutBytes(g.project), checkout, "the human's checkout is byte-identical");
});
