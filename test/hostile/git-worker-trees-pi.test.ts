// Claim: the `.git`-swap attack (a gitdir of the worker's making whose config sets core.fsmonitor) runs nothing when the
// human promotes or discards from the verdict card in a real interactive pi: the refusal is named on the card, no
// decision but the human's approval is recorded, the planted program never runs and the checkout is byte-identical.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decisionsForWorker } from "../../src/ledger/review/decisions.js";
import {
  checkoutBytes,
  fakeGitDir,
  markerScript,
  type HostileGround,
  type HostileWorker,
} from "../support/hostile-worker.js";
import { piScreen } from "../support/pi-screen.js";
import { appWith, publish, reviewGround, reviewWorker } from "../support/review-fixture.js";
import { tempDir } from "../support/temp.js";

/** The screen with its wrapping undone, so a long refusal reads as one line. */
const flat = (s: string): string => s.replace(/\s+/g, " ");

test("promote and discard from the pi card refuse a swapped .git by name; the planted fsmonitor never runs", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 7: "seven" }) });
  const ground = { project: g.project, marker: join(tempDir(t, "docket-hostile-pi-"), "PWNED") } as HostileGround;
  const script = markerScript(ground, w.workspace);
  writeFileSync(
    join(w.workspace, ".git"),
    `gitdir: ${fakeGitDir(ground, { workspace: w.workspace } as HostileWorker, `\tfsmonitor = ${script}\n\tworktree = ${g.project}\n`)}\n`,
  );
  const checkout = checkoutBytes(g.project);

  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  pi.submit(`/docket verdict ${w.worker}`);
  await pi.until(
    "the card with its keys",
    (s) => s.includes(`docket · verdict · ${w.worker} v1`) && s.includes("p approve + promote"),
  );
  pi.press("p");
  const promoted = await pi.until("the promotion refused", (s) => /\.git is no longer what Docket made/.test(flat(s)));
  assert.match(
    flat(promoted),
    /✗ \S+\/workspace\/\.git is no longer what Docket made at spawn/,
    "shown on the card as a refusal naming the workspace's .git",
  );
  assert.deepEqual(
    decisionsForWorker(g.ctx.db, w.worker).filter((d) => d.verb === "promote"),
    [],
    "nothing was promoted",
  );

  pi.press("D");
  await pi.until("discard's confirmation", (s) => s.includes("docket · discard") && s.includes("→ Yes"));
  pi.press("Enter");
  await pi.until(
    "the discard refused too",
    (s) =>
      !s.includes("docket · discard") && /✗ \S+\/workspace\/\.git is no longer what Docket made at spawn/.test(flat(s)),
  );
  assert.equal(
    readFileSync(join(w.workspace, "src/app.txt"), "utf8"),
    appWith({ 7: "seven" }),
    "the workspace was not reset",
  );
  assert.deepEqual(
    decisionsForWorker(g.ctx.db, w.worker).filter((d) => d.verb === "promote" || d.verb === "discard"),
    [],
    "nothing was promoted or discarded",
  );

  assert.equal(existsSync(ground.marker), false, "the planted fsmonitor never ran");
  assert.deepEqual(checkoutBytes(g.project), checkout, "the human's checkout is byte-identical");
});
