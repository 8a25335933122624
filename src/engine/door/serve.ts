// What the door process asks of the engine beside the calls themselves: its home and environment, which generations
// it serves, and why a generation it does not serve was refused (the fence's own words).

import { basename, dirname } from "node:path";
import { DOOR_DIR } from "../../domain/door.js";
import { internalError } from "../../domain/errors.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import {
  doorPaths,
  doorPathsOfDir,
  listDoorSockets,
  placeSocket,
  prepareDoorDir,
  readDoorEnv,
  removeSocketFile,
  removeSocketIfInode,
  socketInode,
  writeDoorState,
  type DoorPaths,
  type DoorState,
} from "../../files/door-files.js";
import { checkFenceOn, servedGenerations } from "../../ledger/workers/workers.js";
import { isProcessAlive } from "../../substrate/process.js";
import type { EngineContext } from "../context.js";

export type { DoorPaths, DoorState };

export interface DoorHome {
  paths: DoorPaths;
  /** The environment the door's engine runs with: door.env as the human's side wrote it, else the caller's minus identity. */
  env: NodeJS.ProcessEnv;
}

const IDENTITY = /^(DOCKET_WORKER_ID|DOCKET_GENERATION|DOCKET_RUN_TOKEN|DOCKET_DOOR)$/;

export function openDoorHome(doorDir: string, callerEnv: NodeJS.ProcessEnv): DoorHome {
  // The home is what the human's side wrote into door.env; a door directory in the home also names it.
  const written = readDoorEnv(doorPathsOfDir(doorDir));
  const home = written?.DOCKET_HOME ?? (basename(doorDir) === DOOR_DIR ? dirname(doorDir) : undefined);
  if (!home || doorPaths(home).dir !== doorDir) {
    throw internalError(
      "door-dir-unknown",
      `${doorDir} is not the door directory of a Docket home; nothing was started`,
    );
  }
  const paths = doorPaths(home);
  prepareDoorDir(paths);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(written ?? callerEnv)) if (!IDENTITY.test(k)) env[k] = v;
  env.DOCKET_HOME = home;
  return { paths, env };
}

export function servedBy(ctx: EngineContext): ReturnType<typeof servedGenerations> {
  return servedGenerations(ctx.db);
}

/** The refusal a caller without a socket gets (replaced, exited, unknown, wrong token); undefined when it is served. */
export function explainUnserved(ctx: EngineContext, who: WorkerIdentity): void {
  checkFenceOn(ctx.db, who);
}

export const publishDoorState = writeDoorState;
export const socketFiles = listDoorSockets;
export const removeSocket = removeSocketFile;
export const processAlive = isProcessAlive;
export { placeSocket, removeSocketIfInode, socketInode };
