// A review comment from the diff viewer inside a real interactive pi: j moves the cursor to a changed line, c asks for
// the text, the draft lands in the ledger on that exact line and shows under it when the viewer reopens.

import { test } from "node:test";
import assert from "node:assert/strict";
import { commentsOfWorker } from "../../../../src/ledger/review/comments.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";
import { waitFor } from "../../../support/wait.js";

test("c in the diff viewer drafts a comment on the line under the cursor; it shows under that line and is bound to the version", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "CURSOR-TARGET" }) });
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  await pi.until("the dock's footer status", (s) => s.includes("docket · 1 ready"));

  pi.submit(`/docket diff ${w.worker}`);
  await pi.until("the viewer with comment keys", (s) => s.includes("c comment on this line"));
  // Rows: the hunk header, lines 1 and 2, the removed line 3, then the added line 3 (new side).
  pi.press("j", "j", "j", "j");
  await pi.until("the cursor on the added line", (s) => /▸ +3 │\+CURSOR-TARGET/.test(s));
  pi.press("c");
  await pi.until("the comment prompt", (s) => s.includes("Comment on src/app.txt:3 (new)"));
  pi.type("name it <properly>");
  pi.press("Enter");
  const reopened = await pi.until("the viewer again, the draft under its line", (s) =>
    /\+CURSOR-TARGET[\s\S]*▌ cm1 draft: name it <properly>/.test(s),
  );
  assert.match(reopened, /▸ +3 │\+CURSOR-TARGET/, "the viewer reopens where the cursor was");
  const [c] = await waitFor("the draft in the ledger", () => {
    const rows = commentsOfWorker(g.ctx.db, w.worker);
    return rows.length > 0 ? rows : undefined;
  });
  assert.deepEqual(
    [c!.id, c!.ref, c!.state, c!.anchor, c!.text],
    ["cm1", v1.ref, "draft", { file: "src/app.txt", side: "new", start: 3, end: 3 }, "name it <properly>"],
  );

  pi.press("Escape");
  await pi.until("the viewer closed", (s) => !s.includes("docket · diff"));
});
