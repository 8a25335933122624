// `docket spawn --wait`: block until a worker has something for the human — its first version, a question, a
// failure or an exit — polling the ledger row its own process writes, with a deadline.

import { refusal } from "../../domain/errors.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";

export type WaitOutcome = "ready" | "needs_input" | "failed" | "ended" | "exited";

export async function waitForWorker(ctx: EngineContext, worker: string, timeoutMs: number): Promise<WaitOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = getWorker(ctx.db, worker);
    if (!row) throw refusal("unknown-worker", `${worker} is gone (deleted while waiting)`);
    if (row.state === "ready" || row.state === "needs_input" || row.state === "failed" || row.state === "ended")
      return row.state;
    if (row.exited) return "exited";
    if (Date.now() > deadline) {
      throw refusal(
        "wait-timeout",
        `${worker} is still ${row.state} after ${Math.round(timeoutMs / 1000)} s`,
        `\`docket peek ${worker}\` shows what it is doing`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
