// The execution a worker row keeps: the spawn policy resolved once, plus what a launch needs to repeat it exactly.
// A relaunch reads it back validated and never re-resolves (docs/decisions/spawn-policy.md); a row that is not this
// shape cannot be relaunched.

import { refusal } from "../errors.js";
import { isWorkerAgent, type ResolvedExecution } from "./spawn-policy.js";

/** What spawn persists (the whole resolved policy) and what respawn repeats. */
export interface StoredExecution extends ResolvedExecution {
  /** pi arguments from config/DOCKET_PI_ARGS at spawn time; respawn reuses them. */
  piArgs: string[];
  /** The command of a `--agent command` worker. */
  command?: string;
  /** claude/codex arguments from config at spawn time; respawn reuses them. */
  agentArgs?: string[];
  /** The parent's subdirectory relative to the project root, mirrored inside the workspace ("" at the root). */
  subdir: string;
  /** The host (a name in the user's config) the worker runs on over ssh; absent: this machine. */
  host?: string;
}

/** The part of a stored execution a launch and `docket show` read back. */
export type LaunchExecution = Pick<
  StoredExecution,
  | "agent"
  | "kind"
  | "model"
  | "thinking"
  | "context"
  | "seedFile"
  | "workspace"
  | "readOnly"
  | "piArgs"
  | "command"
  | "agentArgs"
  | "subdir"
  | "host"
>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");

/** The launch fields of a parsed `execution` column, checked one by one; undefined when any is off. */
export function parseLaunchExecution(value: unknown): LaunchExecution | undefined {
  if (!isObject(value)) return undefined;
  const {
    agent,
    kind,
    model,
    thinking,
    context,
    seedFile,
    workspace,
    readOnly,
    piArgs,
    command,
    agentArgs,
    subdir,
    host,
  } = value;
  if (typeof agent !== "string" || !isWorkerAgent(agent) || typeof kind !== "string" || typeof thinking !== "string")
    return undefined;
  if (model !== null && typeof model !== "string") return undefined;
  if ((context !== "fresh" && context !== "seeded") || (workspace !== "isolated" && workspace !== "shared"))
    return undefined;
  if (typeof readOnly !== "boolean" || !isStringList(piArgs) || typeof subdir !== "string") return undefined;
  if (
    (seedFile !== undefined && typeof seedFile !== "string") ||
    (command !== undefined && typeof command !== "string")
  )
    return undefined;
  if (agentArgs !== undefined && !isStringList(agentArgs)) return undefined;
  if (host !== undefined && typeof host !== "string") return undefined;
  return {
    agent,
    kind,
    model,
    thinking,
    context,
    workspace,
    readOnly,
    piArgs,
    subdir,
    ...(seedFile !== undefined ? { seedFile } : {}),
    ...(command !== undefined ? { command } : {}),
    ...(agentArgs !== undefined ? { agentArgs } : {}),
    ...(host !== undefined ? { host } : {}),
  };
}

/** The refusal for a worker whose row keeps no launchable execution (a row written outside Docket). */
export function unlaunchable(worker: string): never {
  throw refusal(
    "execution-unreadable",
    `${worker}'s stored execution is not one Docket can launch or show; the ledger was changed outside Docket`,
    'spawn a new worker with `docket spawn "<task>"`',
  );
}
