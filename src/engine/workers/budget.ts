// Budgets: at 80 % of a worker's budget the human is notified; at 100 % its agent is stopped (its window closed, its
// frozen versions kept), the row says why, and `respawn --budget` continues. Never a silent overrun.

import type { Worker } from "../../domain/workers/worker.js";
import { refusal, validationError } from "../../domain/errors.js";
import { isSpendAgent, refreshSpend } from "./spend.js";
import { budgetStep, formatCost } from "../../domain/workers/spend.js";
import { transition } from "../../domain/workers/lifecycle.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import { recordLaunchExit } from "../../ledger/workers/launches.js";
import { budgetOf, markBudget, runningBudgetedWorkers, spendByWorker } from "../../ledger/workers/spend.js";
import { applyLifecycle, getWorker, lifecycleRowOf } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { checkGroupBudgets } from "../groups/group-budget.js";

/** The exit code recorded for an agent Docket stopped at its budget (128 + SIGTERM). */
export const BUDGET_STOP_CODE = 143;

const usd = (n: number): string => `$${n.toFixed(2)}`;

/** Checks the budgets of these workers against their recorded spend; returns how many crossed a threshold now. */
export function enforceBudgets(ctx: EngineContext, rows: readonly Worker[]): number {
  if (ctx.readOnly) return 0;
  const budgeted = rows
    .map((r) => ({ row: r, budget: budgetOf(ctx.db, r.id) }))
    .filter((b) => b.budget.budgetUsd !== null && b.budget.stoppedAt === null);
  if (budgeted.length === 0) return 0;
  const spend = spendByWorker(ctx.db);
  let crossed = 0;
  for (const { row, budget } of budgeted) {
    const totals = spend.get(row.id);
    const spent = totals?.costUsd ?? 0;
    const step = budgetStep(spent, budget.budgetUsd!);
    if (step === "none" || (step === "warn" && budget.warnedAt !== null)) continue;
    const stopped = ctx.commands.run("budget.threshold", { worker: row.id, step, budget: budget.budgetUsd }, (tx) => {
      const said = `${formatCost(totals ?? { costUsd: 0, unpriced: 0, total: 0 })} of its ${usd(budget.budgetUsd!)} budget`;
      if (markBudget(tx, row.id, "warn"))
        insertNotification(tx, { kind: "budget", worker: row.id, body: `spent ${said} (80 % reached)` });
      if (step !== "stop" || !markBudget(tx, row.id, "stop")) return false;
      const now = getWorker(tx.db, row.id)!;
      const reason = `stopped by Docket: spent ${said}; its versions stay reviewable; \`docket respawn ${row.id} --budget <USD>\` continues`;
      insertNotification(tx, { kind: "budget", worker: row.id, body: reason });
      if (!now.exited) {
        recordLaunchExit(tx, row.id, now.generation, undefined, BUDGET_STOP_CODE);
        applyLifecycle(tx, row.id, {
          ...transition(lifecycleRowOf(now), { kind: "exited", code: BUDGET_STOP_CODE }, tx.now),
          lastError: reason,
        });
      }
      return true;
    }).result;
    crossed++;
    if (stopped && row.windowId) {
      try {
        ctx.tmux.killWindow(row.windowId);
      } catch {
        // The window is already gone (the agent ended by itself): the row says it was stopped either way.
      }
    }
  }
  return crossed;
}

/**
 * The timer's round (the door, `docket web`, the pi parent): reads what each running budgeted worker's agent appended
 * and applies its thresholds, so a worker is stopped at its budget even while no Docket command runs.
 */
export function checkRunningBudgets(ctx: EngineContext): number {
  if (ctx.readOnly) return 0;
  const groups = checkGroupBudgets(ctx);
  const ids = runningBudgetedWorkers(ctx.db);
  if (ids.length === 0) return groups;
  const rows = ids.map((id) => getWorker(ctx.db, id)).filter((r): r is Worker => r !== undefined);
  refreshSpend(ctx, rows);
  return groups + enforceBudgets(ctx, rows);
}

/** A budget for a new worker of `agent`: undefined for none; refused when its agent keeps no usage Docket can measure. */
export function resolveBudget(agent: string, budgetUsd: number | undefined): number | undefined {
  if (budgetUsd === undefined) return undefined;
  if (!Number.isFinite(budgetUsd) || budgetUsd <= 0)
    throw validationError("bad-budget", `a budget is a positive number of US dollars; got ${budgetUsd}`);
  if (!isSpendAgent(agent)) {
    throw refusal(
      "budget-unmeasurable",
      `a ${agent} worker keeps no token records Docket can read, so a $${budgetUsd} budget could not be kept; nothing was started`,
      "spawn it without --budget, or as a pi, claude or codex worker",
    );
  }
  return budgetUsd;
}

/** The budget a respawn continues with: a stopped worker needs a new one above what it spent already. */
export function resolveRespawnBudget(
  ctx: EngineContext,
  worker: string,
  budgetUsd: number | undefined,
): number | undefined {
  const b = budgetOf(ctx.db, worker);
  const spent = spendByWorker(ctx.db).get(worker)?.costUsd ?? 0;
  if (budgetUsd === undefined) {
    if (b.stoppedAt === null) return undefined;
    throw refusal(
      "budget-reached",
      `${worker} was stopped at its ${usd(b.budgetUsd ?? 0)} budget (spent ${usd(spent)}); nothing was started`,
      `run \`docket respawn ${worker} --budget ${Math.ceil(spent * 2 + 1)}\` to continue with a larger budget`,
    );
  }
  resolveBudget("pi", budgetUsd);
  if (budgetUsd <= spent)
    throw refusal(
      "budget-too-small",
      `${worker} already spent ${usd(spent)}, so a ${usd(budgetUsd)} budget would stop it at once; nothing was started`,
      `give a budget above ${usd(spent)}`,
    );
  return budgetUsd;
}
