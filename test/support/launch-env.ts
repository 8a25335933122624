// Reads a worker's launch env file the way its launch wrapper does: the test plays that worker's own process.
// The ledger keeps only a hash of the run token, so this file is the one place a test can learn it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseLaunchEnv } from "../../src/domain/workers/launch-env.js";

export function launchEnvOf(home: string, worker: string): Record<string, string> {
  const env = parseLaunchEnv(readFileSync(join(home, "fleet", worker, "launch.env"), "utf8"));
  if (!env) throw new Error(`${worker}'s launch.env is not in Docket's shape`);
  return env;
}

/** The identity variables of the worker's current launch, for running `docket worker …` as that process. */
export function workerIdentityEnv(home: string, worker: string): Record<string, string> {
  const env = launchEnvOf(home, worker);
  return {
    DOCKET_WORKER_ID: env.DOCKET_WORKER_ID!,
    DOCKET_GENERATION: env.DOCKET_GENERATION!,
    DOCKET_RUN_TOKEN: env.DOCKET_RUN_TOKEN!,
  };
}
