// One rule, one rendering for a worker's cost: the same worker reads the same on the CLI (`ls`, `show`), the web fleet
// page, pi's fleet dashboard and its dock — `unknown` where its agent keeps no records, `$0.00` before its first call.

import { test } from "node:test";
import assert from "node:assert/strict";
import { dockRows } from "../../../src/engine/talk/parent-feed.js";
import { fleetBoard } from "../../../src/engine/workers/fleet-board.js";
import { formatDock } from "../../../src/surfaces/pi/parent/dock.js";
import { fleetRow } from "../../../src/surfaces/pi/parent/fleet-view.js";
import { plainPaint } from "../../../src/surfaces/pi/parent/paint.js";
import { renderFleet } from "../../../src/surfaces/web/pages/fleet.js";
import { cliEnv, docket } from "../../support/docket-cli.js";
import { piSession, piWorker } from "../../support/pi-usage.js";
import { tempDir } from "../../support/temp.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";

test("a command worker, a fresh pi worker and an unpriced one each read the same on every surface", (t) => {
  const { ctx, home } = workLedger(t);
  const command = addWorker(ctx, "token-1").worker;
  const fresh = piWorker(ctx, "token-2");
  const unpriced = piWorker(ctx, "token-3");
  piSession(ctx, unpriced, { provider: "nowhere", model: "no-such-model", input: 5000, output: 100 });
  const expected = new Map([
    [command, "unknown"],
    [fresh, "$0.00"],
    [unpriced, "unknown"],
  ]);
  const env = cliEnv({ HOME: tempDir(t), DOCKET_HOME: home });
  const ls = docket({ env, cwd: home }, "ls", "--all");
  assert.equal(ls.code, 0, ls.stderr);
  const web = String(renderFleet(fleetBoard(ctx), true));
  const pi = new Map(fleetBoard(ctx).map((r) => [r.worker, fleetRow(r, plainPaint)]));
  const dock = new Map(formatDock(dockRows(ctx), ctx.clock.nowMs()).map((l) => [l.split(" ")[1]!.split("·")[0]!, l]));
  for (const [worker, cost] of expected) {
    const row = ls.stdout.split("\n").find((l) => l.startsWith(`${worker} `));
    assert.ok(row, ls.stdout);
    assert.equal(row.split(/\s+/)[5], cost, `ls: ${row}`);
    const show = docket({ env, cwd: home }, "show", worker);
    assert.match(
      show.stdout,
      new RegExp(`^ {2}spend: (?:\\S+ tokens · )?${cost.replace("$", "\\$")}\\b`, "m"),
      show.stdout,
    );
    const cell = new RegExp(`data-worker="${worker}".*?<td class="cost" data-label="cost"[^>]*>([^<]*)</td>`).exec(web);
    assert.equal(cell?.[1], cost, `web fleet: ${worker}`);
    assert.match(pi.get(worker)!, new RegExp(` ${cost.replace("$", "\\$")} `), `pi fleet: ${pi.get(worker)}`);
    assert.match(
      dock.get(worker)!,
      new RegExp(` · (?:cost )?${cost.replace("$", "\\$")} · `),
      `dock: ${dock.get(worker)}`,
    );
  }
});
