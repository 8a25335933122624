// Claim: a group's budget is over its candidates' total spend, read from each pi candidate's own session records: at
// 80 % the human is notified once and nobody stops; at 100 % every candidate still running is stopped, once.

import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { EngineContext } from "../../../src/engine/context.js";
import { checkRunningBudgets } from "../../../src/engine/workers/budget.js";
import { groupGround } from "../../support/group-fixture.js";

/** One assistant message with a reported cost, as pi writes it to its session file. */
function spend(ctx: EngineContext, worker: string, usd: number, at: string): void {
  const dir = join(ctx.home.workerDir(worker), "session");
  mkdirSync(dir, { recursive: true });
  const message = {
    role: "assistant",
    provider: "test",
    model: "priced",
    usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, cost: { total: usd } },
  };
  appendFileSync(join(dir, "s.jsonl"), `${JSON.stringify({ type: "message", timestamp: at, message })}\n`);
}

const budgetNotes = (ctx: EngineContext) =>
  (ctx.db.prepare("SELECT body FROM notifications WHERE kind = 'budget' ORDER BY id").all() as { body: string }[]).map(
    (n) => n.body,
  );
const exited = (ctx: EngineContext) =>
  (ctx.db.prepare("SELECT exited FROM workers ORDER BY seq").all() as { exited: number }[]).map((w) => w.exited);

test("the group's budget counts every candidate's spend: notified at 80 %, every candidate stopped at 100 %", (t) => {
  const { g } = groupGround(t, 2, 1);
  spend(g.ctx, "w1", 0.5, "2026-03-01T10:01:00.000Z");
  spend(g.ctx, "w2", 0.35, "2026-03-01T10:02:00.000Z");
  assert.equal(checkRunningBudgets(g.ctx), 1);
  assert.deepEqual(budgetNotes(g.ctx), ["group b1 spent $0.85 of its $1.00 budget (80 % reached)"]);
  assert.deepEqual(exited(g.ctx), [0, 0], "nobody is stopped below the budget");
  assert.equal(checkRunningBudgets(g.ctx), 0, "the notice is given once");

  spend(g.ctx, "w2", 0.2, "2026-03-01T10:03:00.000Z");
  assert.equal(checkRunningBudgets(g.ctx), 1);
  assert.equal(budgetNotes(g.ctx).length, 2);
  assert.match(budgetNotes(g.ctx)[1]!, /^stopped by Docket: group b1 spent \$1\.05 of its \$1\.00 budget/);
  assert.deepEqual(exited(g.ctx), [1, 1], "every candidate is stopped");
  assert.equal(checkRunningBudgets(g.ctx), 0, "a stopped group is not checked again");
});
