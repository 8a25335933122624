// Where Docket keeps its state: the home directory, the ledger file, and each worker's directory.
// Paths are built only from validated ids, so nothing read from disk or typed by a user can traverse.

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { internalError } from "../domain/errors.js";
import { isSafeName } from "../domain/ids.js";

export interface HomeLayout {
  root: string;
  ledger: string;
  kinds: string;
  config: string;
  deliverables: string;
  workers: string;
  workerDir(id: string): string;
}

/** `$DOCKET_HOME`, else `${PI_CODING_AGENT_DIR:-~/.pi/agent}/docket`. */
export function resolveHomeDir(env: NodeJS.ProcessEnv): string {
  if (env.DOCKET_HOME) return resolve(env.DOCKET_HOME);
  const agentDir = env.PI_CODING_AGENT_DIR ? resolve(env.PI_CODING_AGENT_DIR) : join(homedir(), ".pi", "agent");
  return join(agentDir, "docket");
}

export function homeLayout(root: string): HomeLayout {
  return {
    root,
    ledger: join(root, "ledger.sqlite"),
    kinds: join(root, "kinds"),
    config: join(root, "config.json"),
    deliverables: join(root, "deliverables"),
    workers: join(root, "workers"),
    workerDir(id: string) {
      if (!isSafeName(id)) throw internalError("unsafe-worker-id", `refusing to build a path from worker id ${JSON.stringify(id)}`);
      return join(root, "workers", id);
    },
  };
}
