// Claim: the project journal is append-only in the ledger (triggers refuse UPDATE and DELETE), every promotion appends
// what landed crediting its worker in the same command, and the file workers read is re-rendered from the ledger —
// editing it changes nothing. Base moved is derived from it for the workers it concerns.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { openEngine } from "../../../src/engine/open.js";
import { approve } from "../../../src/engine/review/judge.js";
import { promote } from "../../../src/engine/review/promote.js";
import { verdictCard } from "../../../src/engine/review/verdict.js";
import { dockRows } from "../../../src/engine/talk/parent-feed.js";
import { fleetBoard } from "../../../src/engine/workers/fleet-board.js";
import { renderFleet } from "../../../src/surfaces/web/pages/fleet.js";
import { postToJournal, readJournal } from "../../../src/engine/talk/journal.js";
import { recordTouches } from "../../../src/engine/workers/touches.js";
import { listWorkers, showWorker } from "../../../src/engine/workers/view.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tmuxServer } from "../../support/tmux.js";

test("journal rows cannot be updated or deleted, even through raw SQL", (t) => {
  const g = reviewGround(t);
  postToJournal(g.ctx, { text: "the API moved to /v2" });
  assert.throws(
    () => g.ctx.db.prepare("UPDATE journal SET text = 'rewritten'").run(),
    /the project journal is append-only: an entry cannot be updated/,
  );
  assert.throws(
    () => g.ctx.db.prepare("DELETE FROM journal").run(),
    /the project journal is append-only: an entry cannot be deleted/,
  );
  assert.equal(readJournal(g.ctx).entries[0]!.text, "the API moved to /v2");
});

test("a promotion appends the files that landed, crediting its worker, and the file is rendered again from the ledger", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 4: "four" }), "docs/new.md": "new\n" });
  approve(g.ctx, { target: w.worker });
  const r = promote(g.ctx, { target: w.worker, yes: true });
  const { entries, file } = readJournal(g.ctx);
  assert.deepEqual(
    entries.map((e) => ({ kind: e.kind, from: e.from, paths: e.paths, ref: e.ref, workers: e.workers })),
    [
      {
        kind: "promoted",
        from: w.worker,
        paths: ["docs/new.md", "src/app.txt"],
        ref: `worker-deliverable:${w.worker}:1`,
        workers: [w.worker],
      },
    ],
  );
  const decision = g.ctx.db.prepare("SELECT decision FROM journal").pluck().get();
  assert.equal(decision, r.decision.id, "the entry names the promotion that wrote it");
  assert.match(readFileSync(file, "utf8"), /^- docs\/new\.md$/m);
  writeFileSync(file, "someone edited this\n");
  postToJournal(g.ctx, { text: "second entry" });
  const again = readFileSync(file, "utf8");
  assert.ok(!again.includes("someone edited this"), "the next append renders the view from the ledger");
  assert.match(again, /^- src\/app\.txt$/m);
});

test("after a promotion, a worker that edited or read a landed file shows base moved in ls, show, the dock, the web fleet and its card; its own promotion and a decided row never do", (t) => {
  const server = tmuxServer(t);
  const g = reviewGround(t);
  // ls and show probe tmux: this engine looks at a private server, never the user's.
  const view = openEngine({
    env: { DOCKET_HOME: g.home, DOCKET_TMUX_SOCKET: server.socket },
    cwd: g.project,
    clock: g.clock,
  });
  t.after(() => view.close());
  const lander = reviewWorker(t, g);
  const editor = reviewWorker(t, g);
  const reader = reviewWorker(t, g);
  const bystander = reviewWorker(t, g);
  publish(g, editor, { "src/app.txt": appWith({ 30: "thirty" }) });
  recordTouches(g.ctx, reader, [{ path: `${reader.workspace}/src/app.txt`, how: "read" }]);
  recordTouches(g.ctx, bystander, [{ path: "README.md", how: "read" }]);
  g.clock.advanceMinutes(1);
  publish(g, lander, { "src/app.txt": appWith({ 2: "two" }) });
  approve(g.ctx, { target: lander.worker });
  promote(g.ctx, { target: lander.worker, yes: true });

  const listing = listWorkers(view);
  assert.deepEqual([...listing.baseMoved.keys()].sort(), [editor.worker, reader.worker].sort());
  assert.deepEqual(showWorker(view, editor.worker).baseMoved, {
    files: ["src/app.txt"],
    refs: [`worker-deliverable:${lander.worker}:1`],
  });
  assert.equal(showWorker(view, lander.worker).baseMoved, null, "its own promotion is not a warning");
  assert.deepEqual(
    dockRows(g.ctx)
      .filter((r) => r.baseMoved > 0)
      .map((r) => r.worker)
      .sort(),
    [editor.worker, reader.worker].sort(),
  );
  const fleet = fleetBoard(view);
  assert.deepEqual(
    fleet
      .filter((r) => r.baseMoved !== null)
      .map((r) => [r.worker, r.baseMoved])
      .sort(),
    [
      [editor.worker, "base moved · 1 file"],
      [reader.worker, "base moved · 1 file"],
    ].sort(),
  );
  assert.match(
    renderFleet(fleet, false).toString(),
    new RegExp(`data-worker="${editor.worker}".*?<span class="base-moved"[^>]*>base moved · 1 file</span>`),
  );
  const card = verdictCard(g.ctx, editor.worker);
  assert.ok(
    card.warnings.some(
      (w) => w.kind === "base-moved" && w.text === "produced before src/app.txt landed · re-check before promoting",
    ),
    JSON.stringify(card.warnings),
  );

  approve(g.ctx, { target: editor.worker });
  assert.equal(showWorker(view, editor.worker).baseMoved, null, "a decided row does not show it");
  assert.ok(
    !verdictCard(g.ctx, editor.worker).warnings.some((w) => w.kind === "base-moved"),
    "nor does its judged version",
  );
});
