// Whether the door's supervisor should run and does not: what every human command asks as it finishes, so it stays
// cheap and small (a stat, a small read, a signal 0; no connect, no process) and loads nothing that starts one.

import {
  doorPaths,
  readSupervisorState,
  socketInode,
  type DoorPaths,
  type SupervisorState,
} from "../../files/door-files.js";
import { isProcessRunning, processArgv } from "../../substrate/process.js";

/**
 * Whether `pid` runs `docket door <verb> …`: pids are reused (quickly, on a busy machine with 32768 of them), so a
 * live pid alone is not the door's. Where argv cannot be read (no /proc), a running pid is taken as it.
 */
export function runsDoorVerb(pid: number, verb: "serve" | "supervise"): boolean {
  if (!isProcessRunning(pid)) return false;
  const argv = processArgv(pid);
  if (argv === undefined) return true;
  const at = argv.indexOf(verb);
  return at > 0 && argv[at - 1] === "door";
}

/** The supervisor's pid and start while its process runs; undefined when none runs for this home. */
export function runningSupervisor(paths: DoorPaths): SupervisorState | undefined {
  const state = readSupervisorState(paths);
  return state && socketInode(paths.supervisor) !== undefined && runsDoorVerb(state.pid, "supervise")
    ? state
    : undefined;
}

/** A door should run (its control socket is there: it was neither stopped nor idle) and no supervisor watches it. */
export function supervisorMissing(homeRoot: string): boolean {
  const paths = doorPaths(homeRoot);
  return socketInode(paths.control) !== undefined && runningSupervisor(paths) === undefined;
}
