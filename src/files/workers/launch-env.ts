// A worker's launch env file (`fleet/<id>/launch.env`, mode 0600): its identity, run token and secrets, written
// before each launch and read only by that launch's wrapper, so none of it reaches tmux, argv or the ledger
// (docs/decisions/authority.md).

import { existsSync, readFileSync, rmSync } from "node:fs";
import { formatLaunchEnv, parseLaunchEnv } from "../../domain/workers/launch-env.js";
import { writeFileAtomic } from "../atomic.js";

export function writeLaunchEnv(path: string, env: Readonly<Record<string, string>>, header: string): void {
  writeFileAtomic(path, formatLaunchEnv(env, header)); // private (0600) like every atomic write
}

/** The variables of an existing launch env file; undefined when it is missing or not in Docket's shape. */
export function readLaunchEnv(path: string): Record<string, string> | undefined {
  if (!existsSync(path)) return undefined;
  return parseLaunchEnv(readFileSync(path, "utf8"));
}

/** Deletes a launch env file (its run token and secrets go with the worker); an absent one is fine. */
export function removeLaunchEnv(path: string): void {
  rmSync(path, { force: true });
}
