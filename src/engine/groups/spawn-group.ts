// `docket spawn --best-of N`: N candidates on the same brief, each a whole worker in its own worktree, as one group
// row (written with the first). Every policy is resolved (the one resolver) before anything is written; confirmed once.

import { confirmationDeclined, resolveConfirmation } from "../../domain/review/confirmation.js";
import type { ResolvedExecution } from "../../domain/workers/spawn-policy.js";
import { insertCandidate, insertGroup } from "../../ledger/groups/groups.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { resolveBudget } from "../workers/budget.js";
import { spawnWorker, type SpawnInput, type SpawnResult } from "../workers/spawn.js";
import { resolveSpawn } from "../workers/spawn-resolve.js";

export interface BestOfInput {
  task: string;
  /** One spawn input per candidate (the lists already cycled); their task is the group's. */
  candidates: readonly Omit<SpawnInput, "task" | "yes" | "confirm" | "interactive" | "budgetUsd">[];
  /** A budget over the group's total spend: notified at 80 %, every candidate stopped at 100 %. */
  budgetUsd?: number;
  yes?: boolean;
  /** What set `yes` when the human did not type `--yes` (as SpawnInput.yesFrom). */
  yesFrom?: string;
  interactive?: boolean;
  /** Asked once for the whole group, when any candidate's policy wants a confirmation. */
  confirm?: (resolved: readonly ResolvedExecution[]) => Promise<boolean>;
}

export interface BestOfResult {
  group: string;
  candidates: SpawnResult[];
  /** Lines about the group as a whole (its budget, a candidate that could not start). */
  notes: string[];
}

export async function spawnBestOf(ctx: EngineContext, input: BestOfInput): Promise<BestOfResult> {
  assertHuman(ctx, "spawn");
  const resolved: ResolvedExecution[] = [];
  for (const c of input.candidates) {
    const r = await resolveSpawn(ctx, { ...c, task: input.task, interactive: false });
    if (input.budgetUsd !== undefined) resolveBudget(r.resolved.agent, input.budgetUsd);
    resolved.push(r.resolved);
  }
  const needed = resolved.some((r) => r.confirm.needed);
  const interactive = Boolean(input.interactive && input.confirm);
  const step = resolveConfirmation("spawn", { yes: Boolean(input.yes), interactive, needed });
  if (step === "ask" && !(await input.confirm!(resolved))) throw confirmationDeclined("spawn", input.task);
  const projectRoot = ctx.projectRoot();
  const budget = input.budgetUsd !== undefined ? { budgetUsd: input.budgetUsd } : {};
  let group: string | undefined;
  const candidates: SpawnResult[] = [];
  const notes: string[] = [];
  for (const [i, c] of input.candidates.entries()) {
    try {
      const r = await spawnWorker(ctx, {
        ...c,
        task: input.task,
        // Asked once for the group: each candidate then goes ahead on that answer; otherwise as a lone spawn would.
        ...(step === "ask"
          ? { yes: true, yesFrom: "confirmed once for the group" }
          : { yes: Boolean(input.yes), ...(input.yesFrom !== undefined ? { yesFrom: input.yesFrom } : {}) }),
      });
      // The group row comes with its first candidate, so a group never stands empty.
      group = ctx.commands.run(
        "groups.candidate",
        { group: group ?? null, position: i + 1, worker: r.worker },
        (tx) => {
          const id =
            group ??
            insertGroup(tx, { task: input.task.trim(), projectRoot, size: input.candidates.length, ...budget });
          insertCandidate(tx, id, i + 1, r.worker);
          return id;
        },
      ).result;
      candidates.push(r);
    } catch (error) {
      if (candidates.length === 0) throw error;
      // The started candidates stay (each is a whole worker): the group compares what did start.
      notes.push(`candidate ${i + 1} did not start: ${(error as Error).message.split("\n")[0]}`);
      break;
    }
  }
  if (input.budgetUsd !== undefined)
    notes.unshift(`budget: $${input.budgetUsd.toFixed(2)} over the group's total spend (notified at 80 %)`);
  return { group: group!, candidates, notes };
}
