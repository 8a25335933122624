// The diff viewer inside a real interactive pi: the frozen patch one file at a time with the file list, `]`/`[`
// between files, renames, modes and binaries named, and Esc leaves pi's editor and footer as they were.

import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";

test("/docket diff opens the frozen patch in a viewer, ] and [ move between files, Esc closes it and nothing leaks onto pi's screen", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  renameSync(join(w.workspace, "README.md"), join(w.workspace, "MOVED.md"));
  writeFileSync(join(w.workspace, "logo.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255]));
  chmodSync(join(w.workspace, "src/other.txt"), 0o755);
  publish(g, w, { "src/app.txt": appWith({ 3: "DIFF-MARKER-CHANGED" }), "src/new.txt": "DIFF-MARKER-NEW\n" });
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  await pi.until("the dock's footer status", (s) => s.includes("docket · 1 ready"));

  pi.submit(`/docket diff ${w.worker}`);
  const first = await pi.until("the viewer", (s) =>
    s.includes(`docket · diff worker-deliverable:${w.worker}:1 · 5 files`),
  );
  for (const entry of [
    /README\.md → MOVED\.md \(renamed\)/,
    /binary +logo\.bin \(added\)/,
    /\+1 −1 +src\/app\.txt/,
    /\+1 −0 +src\/new\.txt \(added\)/,
    /src\/other\.txt \(mode 100644 → 100755\)/,
  ]) {
    assert.match(first, entry, "the file list names every file as what it is");
  }
  assert.match(first, /▸ .*README\.md → MOVED\.md/, "the first file is current");
  assert.match(first, /renamed without changes \(100% similar\)/);
  assert.match(first, /file 1\/5/);

  pi.press("]", "]", "]");
  const fourth = await pi.until("the fourth file", (s) => s.includes("file 4/5"));
  assert.match(fourth, /▸ .*src\/new\.txt/);
  assert.match(fourth, /@@ -0,0 \+1,1 @@/);
  assert.match(fourth, /1 │\+DIFF-MARKER-NEW/);
  pi.press("[");
  const third = await pi.until("back to the third file", (s) => s.includes("file 3/5"));
  assert.match(third, /2 2 │ line 2/, "old and new line numbers beside each line");
  assert.match(third, /3 {3}│-line 3/, "a removed line has only its old number");
  assert.match(third, / {3}3 │\+DIFF-MARKER-CHANGED/, "an added line only its new one");
  pi.press("]", "]");
  assert.match(await pi.until("the last file", (s) => s.includes("file 5/5")), /mode 100644 → 100755/);
  pi.press("[", "[", "[");
  assert.match(
    await pi.until("the binary file", (s) => s.includes("file 2/5")),
    /binary file added: its bytes are in the frozen patch/,
  );

  pi.press("Escape");
  const closed = await pi.until("the viewer closed", (s) => !s.includes("docket · diff"));
  assert.doesNotMatch(closed, /DIFF-MARKER|@@ |diff --git|GIT binary patch/, "no patch text outside the viewer");
  assert.match(closed, /docket · 1 ready/, "the footer's status line is intact");
  assert.match(closed, /scripted/, "the footer's model is intact");
  pi.type("still typing here");
  await pi.until("text typed into pi's editor", (s) => s.includes("still typing here"));
});
