// Worker text is hostile: a body, file names, a task, a question and patch lines carrying <script>, javascript: links
// and "><img onerror> never run in a real Chromium (no dialog, error or foreign request) and read as text. A page on
// another loopback port, holding the same-site cookie, still cannot write.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { wait } from "../../../src/engine/protocol/protocol.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { activeMarkup, browser, screenshot, watchSideEffects } from "../../support/browser.js";
import { decisionCount, identityOf, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { signedIn, webServer } from "../../support/web.js";

const SCRIPT = "<script>alert('script')</script>";
const IMG = `"><img src=x onerror=alert('img')>`;
const BODY = [
  "# Report",
  "",
  SCRIPT,
  "",
  "[click me](javascript:alert('link'))",
  "",
  IMG,
  "",
  `<a href="javascript:alert('raw')">raw link</a>`,
  "",
  "![pixel](http://127.0.0.1:9/pixel.png)",
  "",
  "<iframe src=\"javascript:alert('frame')\"></iframe>",
].join("\n");

test("hostile worker text on the queue, the card (both views, loaded files, context), the fleet and the log never runs and reads as text", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  g.ctx.commands.run("test.task", {}, (tx) => updateWorker(tx, w.worker, { task: `fix ${SCRIPT} ${IMG}` }));
  const lines =
    Array.from({ length: 40 }, (_, i) => (i === 1 ? `const s = "${SCRIPT}"; // ${IMG}` : `line ${i + 1}`)).join("\n") +
    "\n";
  publish(
    g,
    w,
    {
      "src/app.txt": lines,
      [`${SCRIPT}.txt`]: `${IMG}\n`,
      [`${IMG}.md`]: "x\n",
      "javascript:alert('name').txt": "y\n",
    },
    BODY,
  );
  wait(g.ctx, identityOf(w), { question: `pick ${SCRIPT}`, options: [IMG, "javascript:alert('option')"], risk: IMG });
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web);
  const seen = watchSideEffects(page, web.origin);
  for (const path of ["/", `/card/${w.worker}`, `/card/${w.worker}?view=split`, "/fleet", "/log"]) {
    await page.goto(`${web.origin}${path}`);
    await page.waitForSelector("#main");
    for (const button of await page.$$(".load-btn, tr.gap button.expand")) await button.click();
    await page.waitForTimeout(300);
    const dom = await activeMarkup(page);
    assert.equal(dom.scripts.length, 1, `${path}: only the page's own script`);
    assert.match(dom.scripts[0]!, /^\/assets\/app\.js\?v=/);
    assert.deepEqual([dom.embeds, dom.handlers, dom.jsLinks], [0, 0, 0], path);
  }
  await page.goto(`${web.origin}/card/${w.worker}`);
  const text = (await page.textContent("main")) ?? "";
  for (const literal of [
    SCRIPT,
    IMG,
    `${SCRIPT}.txt`,
    "[click me](javascript:alert('link'))",
    "[image: pixel · http://127.0.0.1:9/pixel.png]",
    `pick ${SCRIPT}`,
  ]) {
    assert.ok(text.includes(literal), `shown as text: ${literal}`);
  }
  assert.ok((await page.textContent("h1"))!.includes(`fix ${SCRIPT} ${IMG}`));
  await page.click(`button.opt[data-text="${IMG.replace(/"/g, '\\"')}"]`);
  await page.waitForSelector(".toast.show");
  assert.equal(
    (g.ctx.db.prepare("SELECT option FROM decisions WHERE verb = 'answer'").get() as { option: string }).option,
    IMG,
    "the option went back byte for byte, as data",
  );
  await screenshot(page, "card-hostile", { fullPage: true });
  assert.deepEqual(seen, { dialogs: [], errors: [], foreign: [] });
});

test("a page on another loopback port cannot write, even though the same-site cookie travels with its requests", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": "changed\n" });
  const web = await webServer(t, g);
  const body = JSON.stringify({ verb: "approve", worker: w.worker, version: 1, lastDecision: null });
  const attacker = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><title>loading</title><iframe name="sink"></iframe>
<form id="f" method="post" action="${web.origin}/act" enctype="text/plain" target="sink"><input name='${body.slice(0, -1)},"x":"' value='"}'></form>
<script>
(async () => {
  await fetch("${web.origin}/act", { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(body)} }).catch(() => {});
  let read = "blocked";
  try { await (await fetch("${web.origin}/", { credentials: "include" })).text(); read = "read"; } catch { read = "blocked"; }
  document.getElementById("f").submit();
  document.querySelector("iframe").addEventListener("load", () => { document.title = "done " + read; });
})();
</script>`);
  });
  await new Promise<void>((r) => attacker.listen(0, "127.0.0.1", r));
  t.after(() => attacker.close());
  const evil = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  const context = await browser(t);
  await signedIn(context, web);
  const page = await context.newPage();
  const statuses: number[] = [];
  page.on("response", (r) => {
    if (r.url() === `${web.origin}/act`) statuses.push(r.status());
  });
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.url() === `${web.origin}/act` && r.method() === "POST") posts.push(r.resourceType());
  });
  await page.goto(evil);
  await page.waitForFunction(() => document.title.startsWith("done"), undefined, { timeout: 15_000 });
  assert.equal(await page.title(), "done blocked", "the other origin could not read the page");
  assert.deepEqual(posts.sort(), ["document", "fetch"], "a fetch and a form post were both sent, cookie and all");
  assert.ok(
    statuses.length >= 1 && statuses.every((s) => s === 403),
    `the server refused them: ${statuses.join(", ")}`,
  );
  assert.equal(decisionCount(g.ctx), 0);
});
