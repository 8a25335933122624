// Claim: a bare worker id judges only the version last shown to the human. The human reads v1 (CLI card, report, diff or
// the web card), the hostile worker publishes v2 with the same summary from its own process: every bare-id judgment is
// refused as version-not-shown with nothing written, the exact ref is accepted, and the judged ref is printed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { browser } from "../support/browser.js";
import { docket, type CliRun } from "../support/docket-cli.js";
import { appWith, gitStatus, groundEnv, publish, reviewGround, reviewWorker } from "../support/review-fixture.js";
import type { ReviewGround } from "../support/review-fixture.js";
import { identityEnv, type ProtocolWorker } from "../support/protocol-worker.js";
import { tmuxServer } from "../support/tmux.js";
import { dumpTables } from "../support/work-ledger.js";
import { signedIn, webServer } from "../support/web.js";

type T = { after(fn: () => void | Promise<void>): void };

/** The real CLI: the human's terminal, or (with `as`) the worker's own process inside its workspace. */
function cli(t: T, g: ReviewGround, as?: ProtocolWorker) {
  const env = groundEnv(t, g, { DOCKET_TMUX_SOCKET: tmuxServer(t).socket, ...(as && identityEnv(as)) });
  return (input: string, ...args: string[]) => docket({ env, cwd: as?.workspace ?? g.project, input }, ...args);
}

/** The hostile worker's v2: another edit, published from its own process with v1's summary word for word. */
function publishSameSummary(t: T, g: ReviewGround, w: ProtocolWorker): void {
  writeFileSync(join(w.workspace, "src/app.txt"), appWith({ 3: "three", 20: "rm -rf ~ # planted in v2" }));
  const r = cli(t, g, w)("Done.\n", "worker", "done", "--outcome", "completed", "--summary", "changed src/app.txt");
  assert.equal(r.code, 0, r.stderr);
}

function assertNotShown(r: CliRun, worker: string, shown: number, current: number): void {
  assert.equal(r.code, 1, `${r.stdout}${r.stderr}`);
  assert.equal(r.json?.error?.code, "version-not-shown", r.stdout);
  assert.match(
    r.json.error.message,
    new RegExp(`^${worker}'s current version is v${current}, but the version last shown to you is v${shown} `),
  );
  assert.match(r.json.error.hint, new RegExp(`\`docket verdict ${worker}\`.*worker-deliverable:${worker}:${current}`));
}

const judgments = (g: ReviewGround) =>
  g.ctx.db.prepare("SELECT verb, deliverable_ref AS ref, actor FROM decisions ORDER BY seq").all();

test("the human read v1 on the CLI card; after the worker's v2 every bare-id judgment is refused, nothing written; the exact ref judges v2", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const human = cli(t, g);
  const card = human("", "verdict", w.worker);
  assert.equal(card.code, 0, card.stderr);
  assert.match(card.stdout, /worker-deliverable:w1:1/);

  publishSameSummary(t, g, w);
  const checkout = gitStatus(g.project);
  const before = dumpTables(g.ctx.db);
  assertNotShown(human("", "approve", w.worker, "--json"), w.worker, 1, 2);
  assertNotShown(human("", "promote", w.worker, "--approve", "--yes", "--json"), w.worker, 1, 2);
  assertNotShown(human("", "reject", w.worker, "--json"), w.worker, 1, 2);
  assertNotShown(human("", "revise", w.worker, "do", "it", "again", "--json"), w.worker, 1, 2);
  assert.deepEqual(dumpTables(g.ctx.db), before, "no decision, message or shown row was written");
  assert.equal(gitStatus(g.project), checkout, "v2's planted line never reached the checkout");

  // The exact ref is always accepted, and the result names it.
  const exact = human("", "approve", "worker-deliverable:w1:2");
  assert.equal(exact.code, 0, exact.stderr);
  assert.match(exact.stdout.split("\n")[0]!, /^dc\d+ approve worker-deliverable:w1:2$/);
  assert.deepEqual(judgments(g), [{ verb: "approve", ref: "worker-deliverable:w1:2", actor: "human" }]);
});

test("the refusal's advice runs as written: `docket verdict w1` shows v2, and then the bare id judges v2, printing the judged ref first", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const human = cli(t, g);
  assert.equal(human("", "verdict", w.worker).code, 0);
  publishSameSummary(t, g, w);
  const refused = human("", "promote", w.worker, "--approve", "--yes", "--json");
  assertNotShown(refused, w.worker, 1, 2);
  const advised = /`(docket verdict [^`]+)`/.exec(refused.json.error.hint)![1]!.split(" ").slice(1);
  const opened = human("", ...advised);
  assert.equal(opened.code, 0, opened.stderr);
  assert.match(opened.stdout, /v2 · worker-deliverable:w1:2/);
  const promoted = human("", "promote", w.worker, "--approve", "--yes");
  assert.equal(promoted.code, 0, promoted.stderr);
  assert.match(promoted.stdout, /judged worker-deliverable:w1:2 \(v2, as last shown to you on cli\)/);
  assert.deepEqual(
    judgments(g).map((d: any) => `${d.verb} ${d.ref}`),
    ["approve worker-deliverable:w1:2", "promote worker-deliverable:w1:2"],
  );
});

test("a report or a diff of v1 binds as a card does; the worker's own views of v2 do not count as shown to the human", (t) => {
  for (const view of [["report"], ["diff"]]) {
    const g = reviewGround(t);
    const w = reviewWorker(t, g);
    publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
    const human = cli(t, g);
    assert.equal(human("", ...view, w.worker).code, 0, view.join(" "));
    publishSameSummary(t, g, w);
    // The worker tries to mark v2 as read: its process shows the human nothing.
    const worker = cli(t, g, w);
    for (const v of [
      ["verdict", w.worker],
      ["report", w.worker],
      ["diff", w.worker],
      ["verdict", w.worker, "--json"],
    ])
      worker("", ...v);
    const before = dumpTables(g.ctx.db);
    assertNotShown(human("", "promote", w.worker, "--approve", "--yes", "--json"), w.worker, 1, 2);
    assertNotShown(human("", "approve", w.worker, "--json"), w.worker, 1, 2);
    assert.deepEqual(dumpTables(g.ctx.db), before, `${view[0]}: nothing written`);
    assert.deepEqual(judgments(g), []);
  }
});

test("a bare id the human never opened judges the current version and says so; --version naming the current one is exact", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const human = cli(t, g);
  const blind = human("", "approve", w.worker);
  assert.equal(blind.code, 0, blind.stderr);
  assert.match(blind.stdout, /judged worker-deliverable:w1:1 \(v1; you have not opened it on any surface\)/);

  // Seen v1, v2 published: `--version 2` names the version, so it is accepted.
  assert.equal(human("", "verdict", w.worker).code, 0);
  publishSameSummary(t, g, w);
  assertNotShown(human("", "reject", w.worker, "--json"), w.worker, 1, 2);
  const named = human("", "reject", w.worker, "--version", "2", "--json");
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.json.decision.deliverable.ref, "worker-deliverable:w1:2");
});

test("the web card shown in a real browser binds the CLI's bare id too: v1 on the page, v2 published, `approve w1` refused naming the web", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const web = await webServer(t, g);
  const page = await signedIn(await browser(t), web, `/card/${w.worker}`);
  await page.waitForSelector(`body[data-version="1"]`);
  publishSameSummary(t, g, w);
  const human = cli(t, g);
  const before = dumpTables(g.ctx.db);
  const r = human("", "approve", w.worker, "--json");
  assertNotShown(r, w.worker, 1, 2);
  assert.match(r.json.error.message, /on web\)/);
  assert.deepEqual(dumpTables(g.ctx.db), before);
  // The page itself, reloaded, shows v2; then the bare id judges v2.
  await page.goto(`${web.origin}/card/${w.worker}`);
  await page.waitForSelector(`body[data-version="2"]`);
  const ok = human("", "approve", w.worker, "--json");
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.json.decision.deliverable.ref, "worker-deliverable:w1:2");
});
