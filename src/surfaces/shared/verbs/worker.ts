// `docket worker …`: the worker's side of the protocol, for processes that are not pi workers.
// The worker identifies itself from DOCKET_WORKER_ID, DOCKET_GENERATION and DOCKET_RUN_TOKEN, and reaches its door at DOCKET_DOOR.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { registerWorkerReconcile, registerWorkerReport } from "./worker-report.js";
import { registerWorkerProtocol } from "./worker-protocol.js";
import { registerWorkerLifecycle } from "./worker-lifecycle.js";
import { registerWorkerGate, registerWorkerHook } from "./worker-hook.js";

/** Subcommand registrars for the `worker` group, each owned by its own module. */
export type WorkerSubcommands = (worker: Command, io: Io) => void;

const registrars: WorkerSubcommands[] = [
  registerWorkerReport,
  registerWorkerReconcile,
  registerWorkerProtocol,
  registerWorkerLifecycle,
  registerWorkerHook,
  registerWorkerGate,
];

export function registerWorkerCommands(program: Command, io: Io): void {
  const worker = program
    .command("worker")
    .description(
      "worker-side protocol: report, todos, wait, done, fail, consult, note (identity from the environment)",
    );
  for (const register of registrars) register(worker, io);
}
