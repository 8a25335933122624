// A best-of group over protocol workers on the review ground: N workers with real worktrees, recorded as one group's
// candidates, each publishing its own frozen version through the real `done`.

import type { EngineContext } from "../../src/engine/context.js";
import { insertCandidate, insertGroup } from "../../src/ledger/groups/groups.js";
import type { ProtocolWorker } from "./protocol-worker.js";
import { reviewGround, reviewWorker, type ReviewGround } from "./review-fixture.js";

type T = { after(fn: () => void): void };

export interface GroupGround {
  g: ReviewGround;
  group: string;
  workers: ProtocolWorker[];
}

/** A group b<N> of `size` candidates (not yet published), with a budget over their total spend when given. */
export function groupGround(t: T, size = 3, budgetUsd?: number): GroupGround {
  const g = reviewGround(t);
  const workers = Array.from({ length: size }, () => reviewWorker(t, g));
  const group = recordGroup(
    g.ctx,
    g.project,
    workers.map((w) => w.worker),
    budgetUsd,
  );
  return { g, group, workers };
}

export function recordGroup(
  ctx: EngineContext,
  projectRoot: string,
  workers: readonly string[],
  budgetUsd?: number,
): string {
  return ctx.commands.run("test.group", { workers }, (tx) => {
    const budget = budgetUsd === undefined ? {} : { budgetUsd };
    const id = insertGroup(tx, { task: "change the app", projectRoot, size: workers.length, ...budget });
    workers.forEach((w, i) => insertCandidate(tx, id, i + 1, w));
    return id;
  }).result;
}
