// Claim: a text file a hostile worker froze as a git binary patch is shown decoded on the review page in a real
// Chromium: its lines as text (worker markup inert, the page's own script the only one), both views, with a warning
// that the worker froze a text file as binary; a file that is not text stays "binary".

import { test } from "node:test";
import assert from "node:assert/strict";
import { activeMarkup, browser, watchSideEffects } from "../support/browser.js";
import { freezeTextAsBinary, hostileGround, hostileWorker } from "../support/hostile-worker.js";
import type { ReviewGround } from "../support/review-fixture.js";
import { signedIn, webServer } from "../support/web.js";

const IMG = `"><img src=x onerror=alert('img')>`;
/** What the worker writes into src/b.ts: markup and a terminal escape (text to git: no NUL, valid UTF-8). */
const NEW_B = `export const b = "${IMG}";\n// \u001b]52;c;cHduZWQ=\u0007 clipboard\n`;

test("the review page shows a text file frozen as a binary patch decoded, with a warning, in both views; its markup never runs", async (t) => {
  const g = hostileGround(t);
  const w = await hostileWorker(g);
  freezeTextAsBinary(w, NEW_B, { inTree: true });
  const done = w.done("b is new");
  assert.equal(done.code, 0, done.stderr + done.stdout);

  const web = await webServer(t, { home: g.home, project: g.project } as ReviewGround);
  const context = await browser(t);
  const page = await signedIn(context, web);
  const seen = watchSideEffects(page, web.origin);
  for (const view of ["unified", "split"]) {
    await page.goto(`${web.origin}/card/${w.id}?view=${view}`);
    await page.waitForSelector("section.file");
    const files = await page.$$eval("section.file", (sections) =>
      sections.map((s) => ({
        path: s.querySelector(".file-head .path")?.textContent ?? "",
        head: s.querySelector(".file-head")?.textContent ?? "",
        warning: s.querySelector(".note.frozen-binary")?.textContent ?? null,
        added: [...s.querySelectorAll("td.c.a, tr.a td.c")].map((c) => c.textContent ?? ""),
        removed: [...s.querySelectorAll("td.c.d, tr.d td.c")].map((c) => c.textContent ?? ""),
        note: s.querySelector(".note:not(.frozen-binary)")?.textContent ?? null,
      })),
    );
    const b = files.find((f) => f.path === "src/b.ts");
    assert.ok(b, `${view}: src/b.ts is on the page`);
    assert.match(
      b.warning ?? "",
      /The worker froze this text file as a binary patch/,
      `${view}: the file carries the warning`,
    );
    assert.match(b.head, /frozen as binary/);
    assert.doesNotMatch(b.head, /\bbinary$/, `${view}: not labelled a plain binary file`);
    assert.equal(b.note, null, `${view}: no "content is not shown" note`);
    assert.deepEqual(b.removed, ["export const b = 2;"], `${view}: the base line, decoded`);
    assert.deepEqual(
      b.added,
      [`export const b = "${IMG}";`, "// \u001b]52;c;cHduZWQ=\u0007 clipboard"],
      `${view}: the worker's lines read as text, byte for byte`,
    );
    const latin1 = files.find((f) => f.path === "latin1.txt");
    assert.match(latin1?.note ?? "", /^Binary file added/, "a file that is not text stays binary");
    assert.equal(latin1?.warning, null);
    const tree = await page.$$eval(".tree a", (as) => as.map((a) => a.textContent ?? ""));
    assert.ok(
      tree.some((e) => e.includes("⚠") && e.includes("src/b.ts") && e.includes("+2") && e.includes("−1")),
      `${view}: the file tree marks it, with its decoded counts: ${tree.join(" | ")}`,
    );
    const dom = await activeMarkup(page);
    assert.equal(dom.scripts.length, 1, "only the page's own script");
    assert.deepEqual([dom.embeds, dom.handlers], [0, 0], "the worker's markup made no element");
  }
  // The diff fragment (the view toggle loads it) decodes the same way.
  const fragment = await page.evaluate(
    async (url) => (await fetch(url, { headers: { "x-docket-fragment": "1" }, credentials: "same-origin" })).text(),
    `/card/${w.id}/v/1/diff`,
  );
  assert.ok(
    fragment.includes("frozen-binary") && fragment.includes("cHduZWQ="),
    `the fragment decodes it too: ${fragment.slice(0, 400)}`,
  );
  assert.ok(!fragment.includes("<img"), "escaped there too");
  const csp = (await page.goto(`${web.origin}/card/${w.id}`))!.headers()["content-security-policy"] ?? "";
  assert.match(csp, /script-src 'self'/, `the page keeps its strict policy: ${csp}`);
  assert.deepEqual(seen, { dialogs: [], errors: [], foreign: [] });
});
