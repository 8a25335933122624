// `docket spawn --wait` (and `answer --wait`): block until a worker has something for the human — its first version,
// a question, a failure, an exit, or its agent blocked — reading it as every surface does (showWorker: harvest and
// evidence included), telling each change of its shown state as it happens, with a deadline and an interruption.

import { refusal } from "../../domain/errors.js";
import type { DisplayState } from "../../domain/workers/lifecycle.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { showWorker } from "./view.js";

export type WaitOutcome = "ready" | "needs_input" | "failed" | "ended" | "exited" | "blocked" | "interrupted";

/** How often the worker is looked at while waiting. */
export const WAIT_POLL_MS = 500;

export interface WaitOptions {
  /** Each shown state as it changes (the first one too), with its reason when there is one. */
  onChange?(state: DisplayState, reason: string | undefined): void;
  /** Aborted: stop waiting (the worker keeps running) and answer `interrupted`. */
  signal?: AbortSignal;
}

export async function waitForWorker(
  ctx: EngineContext,
  worker: string,
  timeoutMs: number,
  options: WaitOptions = {},
): Promise<WaitOutcome> {
  const deadline = Date.now() + timeoutMs;
  let told: string | undefined;
  for (;;) {
    if (options.signal?.aborted) return "interrupted";
    const row = getWorker(ctx.db, worker);
    if (!row) throw refusal("unknown-worker", `${worker} is gone (deleted while waiting)`);
    const shown = showWorker(ctx, worker);
    const said = `${shown.state}\0${shown.reason ?? ""}`;
    if (said !== told) {
      told = said;
      options.onChange?.(shown.state, shown.reason);
    }
    const now = getWorker(ctx.db, worker) ?? row;
    if (now.state === "ready" || now.state === "needs_input" || now.state === "failed" || now.state === "ended")
      return now.state;
    if (shown.state === "blocked") return "blocked";
    if (now.exited) return "exited";
    if (Date.now() > deadline) {
      throw refusal(
        "wait-timeout",
        `${worker} is still ${shown.state} after ${Math.round(timeoutMs / 1000)} s`,
        `\`docket peek ${worker}\` shows what it is doing`,
      );
    }
    await pause(WAIT_POLL_MS, options.signal);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
