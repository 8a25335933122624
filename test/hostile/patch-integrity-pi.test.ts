// Claim: a text file a hostile worker froze as a git binary patch is shown decoded in a real interactive pi: the diff
// viewer draws its lines (the worker's escapes as visible marks) under a warning that the worker froze a text file as
// binary, and the file list and the verdict card name it so; a file that is not text stays "binary".

import { test } from "node:test";
import assert from "node:assert/strict";
import { freezeTextAsBinary, hostileGround, hostileWorker } from "../support/hostile-worker.js";
import { piScreen } from "../support/pi-screen.js";

/** What the worker writes into src/b.ts: an OSC 52 clipboard write and a title set (text to git: valid UTF-8, no NUL). */
const NEW_B = `export const b = 3; // \u001b]52;c;cHduZWQ=\u0007 \u001b]0;owned\u0007 done\n`;

test("the pi diff viewer and card show a text file frozen as a binary patch decoded, with a warning; its escapes are drawn visibly", async (t) => {
  const g = hostileGround(t);
  const w = await hostileWorker(g);
  freezeTextAsBinary(w, NEW_B);
  const done = w.done("b is three");
  assert.equal(done.code, 0, done.stderr + done.stdout);

  const pi = piScreen(t, {
    cwd: g.project,
    vars: { DOCKET_HOME: g.home, DOCKET_TMUX_SOCKET: g.env.DOCKET_TMUX_SOCKET! },
  });
  await pi.start();
  pi.submit(`/docket diff ${w.id}`);
  const list = await pi.until("the viewer", (s) => s.includes(`docket · diff worker-deliverable:${w.id}:1 · 2 files`));
  assert.match(list, /binary +latin1\.txt \(added\)/, "the file that is not text stays binary");
  assert.match(
    list,
    /\+1 −1 +src\/b\.ts \(⚠ frozen as binary, shown decoded\)/,
    "the file list names b.ts as decoded, with its decoded counts",
  );
  pi.press("]");
  const b = await pi.until("src/b.ts in the viewer", (s) => s.includes("file 2/2") && s.includes("│+"));
  assert.match(b, /⚠ the worker froze this text file as a binary patch: shown decoded/);
  assert.match(b, /1 {3}│-export const b = 2;/, "the base line, decoded");
  assert.match(
    b,
    / {3}1 │\+export const b = 3; \/\/ ␛\]52;c;cHduZWQ=␇ ␛\]0;owned␇ done/,
    "the worker's line, its escapes drawn as marks",
  );
  assert.doesNotMatch(b, /binary file modified/);
  pi.press("Escape");
  await pi.until("the viewer closed", (s) => !s.includes("docket · diff"));

  pi.submit(`/docket verdict ${w.id}`);
  const card = await pi.until("the card", (s) => s.includes(`docket · verdict · ${w.id} v1`) && s.includes("src/b.ts"));
  assert.match(card, /\+1 −1 +src\/b\.ts \(⚠ frozen as binary, shown decoded\)/, "the card names it too");
  const raw = pi.screenWithColours();
  assert.ok(
    !raw.includes("\u001b]52") && !raw.includes("\u001b]0;owned"),
    "no raw escape of the worker's reached the terminal",
  );
});
