// A best-of group's budget is over its candidates' total spend: at 80 % the human is notified once, at 100 % every
// candidate still running is stopped (their versions stay reviewable). Checked by the same timer as workers' budgets.

import { budgetStep, formatCost, addTotals, EMPTY_TOTALS } from "../../domain/workers/spend.js";
import type { Worker } from "../../domain/workers/worker.js";
import { budgetedGroups, markGroupBudget, type WorkerGroup } from "../../ledger/groups/groups.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import { spendByWorker } from "../../ledger/workers/spend.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { refreshSpend } from "../workers/spend.js";
import { stopCandidates, stopInLedger } from "./stop-candidates.js";

/** Reads every budgeted group's candidates' new records and applies the thresholds; returns how many crossed now. */
export function checkGroupBudgets(ctx: EngineContext): number {
  if (ctx.readOnly) return 0;
  const groups = budgetedGroups(ctx.db);
  if (groups.length === 0) return 0;
  let crossed = 0;
  for (const g of groups) {
    if (g.workers.length === 0) continue; // none of its candidates started
    const rows = g.workers.map((w) => getWorker(ctx.db, w)).filter((r): r is Worker => r !== undefined);
    refreshSpend(ctx, rows);
    if (enforceGroupBudget(ctx, g, rows)) crossed++;
  }
  return crossed;
}

function enforceGroupBudget(ctx: EngineContext, g: WorkerGroup, rows: readonly Worker[]): boolean {
  const byWorker = spendByWorker(ctx.db);
  const total = rows.reduce((a, r) => addTotals(a, byWorker.get(r.id) ?? EMPTY_TOTALS), { ...EMPTY_TOTALS });
  const step = budgetStep(total.costUsd, g.budgetUsd!);
  if (step === "none" || (step === "warn" && g.budgetWarnedAt !== null)) return false;
  const said = `group ${g.id} spent ${formatCost(total)} of its $${g.budgetUsd!.toFixed(2)} budget`;
  const stopped = ctx.commands.run("groups.budget", { group: g.id, step, budget: g.budgetUsd }, (tx) => {
    if (markGroupBudget(tx, g.id, "warn"))
      insertNotification(tx, { kind: "budget", worker: g.workers[0]!, body: `${said} (80 % reached)` });
    if (step !== "stop" || !markGroupBudget(tx, g.id, "stop")) return [];
    const reason = `stopped by Docket: ${said}; its versions stay reviewable; \`docket respawn <w> --budget <USD>\` continues one`;
    insertNotification(tx, { kind: "budget", worker: g.workers[0]!, body: reason });
    return stopInLedger(tx, g.workers, reason);
  }).result;
  stopCandidates(ctx, stopped);
  return true;
}
