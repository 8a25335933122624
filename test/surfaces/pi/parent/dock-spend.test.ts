// The pi dock and fleet dashboard show each worker's cost so far, read from real pi session files into a real ledger:
// the registry's price where the model has one, "cost unknown" where it has none or the agent keeps no records.

import { test } from "node:test";
import assert from "node:assert/strict";
import { dockRows } from "../../../../src/engine/talk/parent-feed.js";
import { fleetBoard } from "../../../../src/engine/workers/fleet-board.js";
import { modelPrices } from "../../../../src/substrate/model-prices.js";
import { formatDock } from "../../../../src/surfaces/pi/parent/dock.js";
import { fleetRow } from "../../../../src/surfaces/pi/parent/fleet-view.js";
import { plainPaint } from "../../../../src/surfaces/pi/parent/paint.js";
import { addWorker, workLedger } from "../../../support/work-ledger.js";
import { piSession, piWorker } from "../../../support/pi-usage.js";

test("the dock and the fleet show the cost so far per worker, and say unknown where it is unknown", (t) => {
  const { ctx } = workLedger(t);
  const priced = piWorker(ctx, "token-1");
  const unpriced = piWorker(ctx, "token-2");
  const fresh = piWorker(ctx, "token-3");
  const command = addWorker(ctx, "token-4").worker;
  piSession(ctx, priced, { provider: "anthropic", model: "claude-sonnet-4-5", input: 200_000, output: 20_000 });
  piSession(ctx, unpriced, { provider: "nowhere", model: "no-such-model", input: 5000, output: 100 });
  const prices = modelPrices("anthropic", "claude-sonnet-4-5")!;
  const dollars = `$${((200_000 * prices.input + 20_000 * prices.output) / 1e6).toFixed(2)}`;

  // The fleet board reads what the agents recorded (as `ls` does); the dock then shows what was recorded.
  const fleet = new Map(fleetBoard(ctx).map((r) => [r.worker, fleetRow(r, plainPaint)]));
  const cost = (row: string) => / (?:—|v\d+) +(\S+) /.exec(row)?.[1]; // the column after the version
  assert.equal(cost(fleet.get(priced)!), dollars);
  assert.equal(cost(fleet.get(unpriced)!), "unknown", "a model without a registry price");
  assert.equal(cost(fleet.get(fresh)!), "$0.00", "a pi worker that recorded nothing yet");
  assert.equal(cost(fleet.get(command)!), "unknown", "a command worker keeps no records");

  const dock = new Map(formatDock(dockRows(ctx), ctx.clock.nowMs()).map((l) => [l.split(" ")[1]!.split("·")[0]!, l]));
  assert.match(dock.get(priced)!, new RegExp(` · pi task · \\${dollars} · \\S+$`));
  assert.match(dock.get(unpriced)!, / · pi task · cost unknown · \S+$/);
  assert.match(dock.get(fresh)!, / · pi task · \$0\.00 · \S+$/);
  assert.match(dock.get(command)!, / · test worker · cost unknown · \S+$/);
});
