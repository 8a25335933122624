// Who may do what (docs/decisions/authority.md): the one list of the human's verbs, and whether an environment carries
// a worker identity. A process with any worker identity variable set is a worker's (or was started by one) and may
// judge nothing.

/** The variables a launch gives a worker process; any one of them marks the process as a worker's. */
export const WORKER_IDENTITY_VARS = ["DOCKET_WORKER_ID", "DOCKET_GENERATION", "DOCKET_RUN_TOKEN"] as const;

/**
 * Every verb that judges, starts, stops or changes what the human owns. The engine refuses each of them from a
 * process that carries a worker identity, whichever door (CLI, pi parent, web, MCP) it came through. Names are
 * the CLI's command paths; `chips take` is the pi parent attaching queued chips to a prompt.
 */
export const HUMAN_VERBS = [
  "approve",
  "reject",
  "revise",
  "answer",
  "promote",
  "discard",
  "use",
  "chips drop",
  "chips take",
  "save",
  "load",
  "unload",
  "deliverable delete",
  "dispatch",
  "item add",
  "item edit",
  "item reply",
  "obligation park",
  "obligation unpark",
  "attention dismiss",
  "spawn",
  "respawn",
  "delete",
  "prune",
  "tell",
  "broadcast",
  "combine",
  "comment",
  "hosts add",
  "hosts rm",
] as const;

export type HumanVerb = (typeof HUMAN_VERBS)[number];

/** The worker identity variables set (non-empty) in `env`, in list order; empty for the human's own process. */
export function workerIdentityIn(env: Record<string, string | undefined>): string[] {
  return WORKER_IDENTITY_VARS.filter((name) => (env[name] ?? "") !== "");
}

/**
 * Set by the pi parent extension in its own process environment (its pid), so every process the session's model
 * starts through its tools inherits it. A process carrying it, whatever pid it names, is the parent agent's: the pi
 * process knows itself in memory, never by this value. Where its tools run boxed, this only names them.
 */
export const PARENT_AGENT_VAR = "DOCKET_PARENT_AGENT";

/** Given only to a helper the pi parent starts for the human itself (the review page's server): a secret, not a flag. */
export const PARENT_HELPER_VAR = "DOCKET_PARENT_HELPER";
