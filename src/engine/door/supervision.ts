// Who keeps the door up: one supervisor process per home, started with the door and outside every sandbox, which
// restarts a door that died. The human's side starts it (spawn, doctor --fix) and revives it on any command.

import {
  doorPathsOfDir,
  prepareDoorDir,
  readSupervisorState,
  removeControlFile,
  removeSocketIfInode,
  socketInode,
  writeSupervisorState,
  type DoorPaths,
  type SupervisorState,
} from "../../files/door-files.js";
import { claimDoorStart, releaseDoorStart, startDoorProcess, startSupervisor } from "../../substrate/door-revive.js";
import { probeSocket } from "../../substrate/socket-probe.js";

export { runningSupervisor } from "./keep.js";
export type { DoorChild } from "../../substrate/door-revive.js";
export type { DoorPaths };
export {
  doorPathsOfDir,
  prepareDoorDir,
  probeSocket,
  releaseDoorStart,
  removeSocketIfInode,
  socketInode,
  startDoorProcess,
};

/** Starts the supervisor (it starts the door) unless another start was claimed in the last seconds. */
export function startSupervisedDoor(paths: DoorPaths, env: NodeJS.ProcessEnv, nowMs: number): boolean {
  if (!claimDoorStart(paths.controlDir, nowMs)) return false;
  startSupervisor(paths.dir, env);
  return true;
}

export function publishSupervisor(paths: DoorPaths, state: SupervisorState): void {
  writeSupervisorState(paths, state);
}

/** Removes the supervisor's state file if it is still this process's. */
export function retireSupervisor(paths: DoorPaths, pid: number): void {
  if (readSupervisorState(paths)?.pid === pid) removeControlFile(paths.supervisorState);
}
