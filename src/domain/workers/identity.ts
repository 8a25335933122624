// Who a worker process is: worker id, generation and run token, read from the environment Docket launched it with.
// Pure: the caller passes the environment record; a missing or malformed part is one usage error naming it.

import { usageError } from "../errors.js";
import { normalizeWorkerId } from "../ids.js";

export interface WorkerIdentity {
  worker: string;
  generation: number;
  runToken: string;
}

export function parseWorkerIdentity(env: Record<string, string | undefined>): WorkerIdentity {
  const missing = ["DOCKET_WORKER_ID", "DOCKET_GENERATION", "DOCKET_RUN_TOKEN"].filter(
    (k) => !env[k] || env[k]!.trim() === "",
  );
  if (missing.length > 0) {
    throw usageError(
      "no-worker-identity",
      `${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set; worker commands run inside a worker Docket started`,
      "run this from the worker's window, or export the variables its launch set",
    );
  }
  const worker = normalizeWorkerId(env.DOCKET_WORKER_ID!);
  if (!worker)
    throw usageError("no-worker-identity", `DOCKET_WORKER_ID "${env.DOCKET_WORKER_ID}" is not a worker id (w<N>)`);
  // Exactly as the launch set it: digits only (Number() would take " 1", "1e0" or "0x1" for 1).
  if (!/^[1-9][0-9]{0,9}$/.test(env.DOCKET_GENERATION!)) {
    throw usageError(
      "no-worker-identity",
      `DOCKET_GENERATION ${JSON.stringify(env.DOCKET_GENERATION)} is not a positive whole number as the launch set it (digits only)`,
    );
  }
  const generation = Number(env.DOCKET_GENERATION);
  return { worker, generation, runToken: env.DOCKET_RUN_TOKEN!.trim() };
}
