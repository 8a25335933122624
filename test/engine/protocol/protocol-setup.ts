// The protocol tests' fixture: a work ledger with one isolated worker and its fenced identity, and a one-row read.

import { isolatedWorker } from "../../support/protocol-worker.js";
import { workLedger } from "../../support/work-ledger.js";

export function setup(t: { after(fn: () => void): void }) {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const who = { worker: w.worker, generation: 1, runToken: w.runToken };
  return { ctx, w, who };
}

export const row = (
  ctx: { db: { prepare(s: string): { get(...a: unknown[]): unknown } } },
  sql: string,
  ...args: unknown[]
) => ctx.db.prepare(sql).get(...args) as Record<string, unknown>;
