// `docket worker exited|heartbeat`: a worker process reporting its own exit (the launch wrapper) or liveness, via its door.
// Identity comes from the environment Docket launched it with; a stale generation's exit changes nothing.

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import type { ExitResult } from "../../../engine/workers/lifecycle.js";
import type { PersistedState } from "../../../domain/workers/lifecycle.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import { callDoor, doorOf } from "../door-client.js";

function parseExitCode(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 255)
    throw usageError("bad-flag", `--code must be an exit status 0-255; got "${value}"`);
  return n;
}

export function registerWorkerLifecycle(worker: Command, io: Io): void {
  worker
    .command("exited")
    .description("record this worker process's exit (run by the launch wrapper)")
    .requiredOption("--code <n>", "the exit status of the worker's command", parseExitCode)
    .action(async (opts: { code: number }) => {
      const r = await callDoor<ExitResult>(doorOf(process.env), "exited", { code: opts.code });
      emit(io, r, (x) =>
        x.settled
          ? `${x.worker} generation ${x.generation} exited (${opts.code}) → ${x.state}`
          : `${x.worker} generation ${x.generation} was replaced; its exit changes nothing`,
      );
    });

  worker
    .command("heartbeat")
    .description("tell Docket this worker process is alive (and which model/thinking is in effect)")
    .option("--model <provider/model>", "the model actually in effect")
    .option("--thinking <level>", "the thinking level actually in effect")
    .action(async (opts: { model?: string; thinking?: string }) => {
      const r = await callDoor<{ worker: string; state: PersistedState }>(doorOf(process.env), "heartbeat", {
        model: opts.model,
        thinking: opts.thinking,
        pid: process.ppid,
      });
      emit(io, r, (x) => `${x.worker} heartbeat recorded (${x.state})`);
    });
}
