// The pi parent session's mark on its own process: every tool the session's model runs inherits it.
// Registered in the home with its start time, so a CLI that dropped the variable is still found by its ancestry.

import { createHash, randomBytes } from "node:crypto";
import { PARENT_AGENT_VAR, PARENT_HELPER_VAR } from "../domain/authority.js";
import { resolveHomeDir } from "../files/home.js";
import { removeParentSession, writeParentSession } from "../files/parent-sessions.js";
import { ownPid, processStartTime } from "../substrate/process-ancestry.js";

/** The secret of this process's session; only a helper started for the human by this process receives it. */
let helperSecret: string | undefined;
/** Set in memory by the pi process itself: no environment a tool's child writes can make another process this one. */
let sessionPid: number | undefined;

/** Whether this process is a pi parent session (the human's own /docket commands run in it). */
export function isParentSessionProcess(): boolean {
  return sessionPid !== undefined && sessionPid === ownPid();
}

export interface ParentSession {
  pid: number;
  /** Where the session could not be registered (an unwritable home): the variable alone then marks its tools. */
  warning?: string;
  stop(): void;
}

/**
 * Marks `env` (the pi process's own environment, inherited by every tool's child) and registers the session. Called once,
 * when the parent role loads, before the model can run anything.
 */
export function startParentSession(env: NodeJS.ProcessEnv): ParentSession {
  const pid = ownPid();
  sessionPid = pid;
  env[PARENT_AGENT_VAR] = String(pid);
  delete env[PARENT_HELPER_VAR];
  helperSecret ??= randomBytes(24).toString("hex");
  const home = resolveHomeDir(env);
  let warning: string | undefined;
  try {
    writeParentSession(home, {
      pid,
      startTime: processStartTime(pid) ?? "",
      helperSha256: createHash("sha256").update(helperSecret).digest("hex"),
    });
  } catch (error) {
    warning = `could not register this pi session in ${home}: ${(error as Error).message}; its tools are still marked by ${PARENT_AGENT_VAR}`;
  }
  return { pid, ...(warning ? { warning } : {}), stop: () => removeParentSession(home, pid) };
}

/**
 * The environment for a helper this process starts on the human's behalf (the review page's server from `/docket web`):
 * without the parent-agent mark, with the session's secret. Outside a pi parent session, `env` unchanged.
 */
export function helperEnvOf(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!helperSecret || !isParentSessionProcess()) return env;
  const { [PARENT_AGENT_VAR]: _marked, ...rest } = env;
  return { ...rest, [PARENT_HELPER_VAR]: helperSecret };
}
