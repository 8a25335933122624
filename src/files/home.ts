// Where Docket keeps its state: the home directory, the ledger file, and each worker's directory (`fleet/<id>`).
// Paths are built only from validated ids; worker directories live beside pi-docket's `workers/`, never in it.

import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { internalError } from "../domain/errors.js";
import { isSafeName, isWorkerId } from "../domain/ids.js";

export interface HomeLayout {
  root: string;
  ledger: string;
  kinds: string;
  config: string;
  deliverables: string;
  /** Docket's worker directories. pi-docket, which may share this home, reads `workers/` and must never see them. */
  workers: string;
  /** Where Docket put worker directories before they moved to `fleet/` (and where pi-docket keeps its own). */
  legacyWorkers: string;
  /** `fleet/<id>`, or `workers/<id>` for a Docket worker started before the move that still lives there. */
  workerDir(id: string): string;
  /** True when `id`'s directory is an old one under `workers/` (Docket writes no status.json there: pi-docket reads it). */
  isLegacyWorkerDir(id: string): boolean;
}

/** `$DOCKET_HOME`, else `${PI_CODING_AGENT_DIR:-~/.pi/agent}/docket`. */
export function resolveHomeDir(env: NodeJS.ProcessEnv): string {
  if (env.DOCKET_HOME) return resolve(env.DOCKET_HOME);
  const agentDir = env.PI_CODING_AGENT_DIR ? resolve(env.PI_CODING_AGENT_DIR) : join(homedir(), ".pi", "agent");
  return join(agentDir, "docket");
}

function isRealDir(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // unreadable: not a directory Docket can use
  }
}

export function homeLayout(root: string): HomeLayout {
  const workers = join(root, "fleet");
  const legacyWorkers = join(root, "workers");
  const checked = (id: string): string => {
    if (!isSafeName(id))
      throw internalError("unsafe-worker-id", `refusing to build a path from worker id ${JSON.stringify(id)}`);
    return id;
  };
  // Only Docket's own ids (w<N>) are looked for under workers/: pi-docket's ids there are task slugs with a suffix.
  // A worker found under fleet/ is remembered: directories move from workers/ to fleet/, never back.
  const inFleet = new Set<string>();
  const legacy = (id: string): boolean => {
    if (!isWorkerId(id) || inFleet.has(id)) return false;
    if (isRealDir(join(workers, id))) {
      inFleet.add(id);
      return false;
    }
    return isRealDir(join(legacyWorkers, id));
  };
  return {
    root,
    ledger: join(root, "ledger.sqlite"),
    kinds: join(root, "kinds"),
    config: join(root, "config.json"),
    deliverables: join(root, "deliverables"),
    workers,
    legacyWorkers,
    workerDir: (id) => join(legacy(checked(id)) ? legacyWorkers : workers, id),
    isLegacyWorkerDir: (id) => legacy(checked(id)),
  };
}
