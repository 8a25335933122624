// The human's side of the door: start it when a worker needs it, name each generation's socket, and read its state.
// One door per home (DESIGN §8b); a door that runs is left alone, a dead one's stale state is replaced by the next start.

import { doorCommand, doorSocketName, SOCKET_PATH_MAX } from "../../domain/door.js";
import { internalError } from "../../domain/errors.js";
import {
  doorPaths,
  prepareDoorDir,
  readDoorState,
  writeDoorEnv,
  type DoorPaths,
  type DoorState,
} from "../../files/door-files.js";
import { claimDoorStart } from "../../substrate/door-revive.js";
import { startNodeDetached, stopProcess } from "../../substrate/node-process.js";
import { isProcessAlive } from "../../substrate/process.js";
import type { EngineContext } from "../context.js";
import { docketBinPath } from "../workers/launch.js";

/** What of the human's environment the door runs with: enough to reach tmux, git and the home, no worker identity. */
const DOOR_PASSED_ENV = [
  "PATH",
  "HOME",
  "SSH_AUTH_SOCK",
  "LANG",
  "TERM",
  "TMPDIR",
  "PI_CODING_AGENT_DIR",
  "DOCKET_TMUX_SOCKET",
  "DOCKET_DEBUG",
  "GIT_CONFIG_NOSYSTEM",
];

export function doorEnvOf(ctx: EngineContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of DOOR_PASSED_ENV) if (ctx.env[name] !== undefined) env[name] = ctx.env[name]!;
  env.DOCKET_HOME = ctx.home.root;
  return env;
}

/** The door's state when its process still runs; undefined when no door runs for this home. */
export function runningDoor(paths: DoorPaths): DoorState | undefined {
  const state = readDoorState(paths);
  return state && isProcessAlive(state.pid) ? state : undefined;
}

/** The socket a worker generation reaches its door on (the value of its DOCKET_DOOR). */
export function doorSocketFor(ctx: EngineContext, worker: string, generation: number): string {
  const path = doorPaths(ctx.home.root).socket(doorSocketName(worker, generation));
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX) {
    throw internalError(
      "door-path-too-long",
      `the door socket ${path} is longer than the ${SOCKET_PATH_MAX} bytes a Unix socket path may have; use a shorter DOCKET_HOME`,
    );
  }
  return path;
}

/**
 * Makes sure a door serves this home: writes the environment it (and any restart of it) runs with, and starts it
 * detached when none runs. Never waits for it: a worker's first call waits for its socket (bounded).
 */
export function ensureDoor(ctx: EngineContext): DoorPaths {
  const paths = doorPaths(ctx.home.root);
  prepareDoorDir(paths);
  const env = doorEnvOf(ctx);
  writeDoorEnv(paths, env);
  if (runningDoor(paths) || !claimDoorStart(paths.dir, ctx.clock.nowMs())) return paths; // running, or being started by another spawn
  startNodeDetached(doorCommand(docketBinPath(), paths.dir), { cwd: ctx.home.root, env, logPath: paths.log });
  return paths;
}

/** Stops this home's door now (the demo, whose workers are all gone, leaves nothing running); no door is fine. */
export function stopDoor(ctx: EngineContext): number | undefined {
  const running = runningDoor(doorPaths(ctx.home.root));
  if (!running) return undefined;
  try {
    stopProcess(running.pid);
  } catch {
    return undefined; // it ended meanwhile
  }
  return running.pid;
}

export function doorRunning(ctx: EngineContext): boolean {
  return runningDoor(doorPaths(ctx.home.root)) !== undefined;
}
