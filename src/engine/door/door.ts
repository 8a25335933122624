// The human's side of the door: start it (supervised) when a worker needs it, revive its supervisor, name each
// generation's socket, and read its state. One door per home (docs/door.md); a door that runs is left alone.

import { doorSocketName, SOCKET_PATH_MAX } from "../../domain/door.js";
import { internalError } from "../../domain/errors.js";
import {
  doorPaths,
  prepareDoorDir,
  readDoorEnv,
  readDoorState,
  socketInode,
  writeDoorEnv,
  type DoorPaths,
  type DoorState,
} from "../../files/door-files.js";
import { stopProcess } from "../../substrate/node-process.js";
import type { EngineContext } from "../context.js";
import { runsDoorVerb } from "./keep.js";
import { runningSupervisor, startSupervisedDoor } from "./supervision.js";

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
  return doorEnvFrom(ctx.env, ctx.home.root);
}

function doorEnvFrom(from: NodeJS.ProcessEnv, homeRoot: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of DOOR_PASSED_ENV) if (from[name] !== undefined) env[name] = from[name]!;
  env.DOCKET_HOME = homeRoot;
  return env;
}

/** The door's state while its process runs and has not begun to stop (its control socket is there); else undefined. */
export function runningDoor(paths: DoorPaths): DoorState | undefined {
  const state = readDoorState(paths);
  return state && socketInode(paths.control) !== undefined && runsDoorVerb(state.pid, "serve") ? state : undefined;
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
 * Makes sure a supervised door serves this home: writes the environment it (and any restart of it) runs with, and
 * starts the supervisor, which starts the door, unless both run. Never waits: a worker's first call waits (bounded).
 */
export function ensureDoor(ctx: EngineContext): DoorPaths {
  const paths = doorPaths(ctx.home.root);
  prepareDoorDir(paths);
  const env = doorEnvOf(ctx);
  writeDoorEnv(paths, env);
  if (!runningDoor(paths) || !runningSupervisor(paths)) startSupervisedDoor(paths, env, ctx.clock.nowMs());
  return paths;
}

/**
 * Run as a human command finishes, once `supervisorMissing` (keep.ts) said so: starts the supervisor, which restarts
 * the door if it is gone too. door.env as the human's side last wrote it, else this command's environment.
 */
export function reviveSupervisor(ctx: EngineContext): void {
  const paths = doorPaths(ctx.home.root);
  startSupervisedDoor(paths, readDoorEnv(paths) ?? doorEnvOf(ctx), ctx.clock.nowMs());
}

/** `docket doctor --fix`: starts the supervised door (door.env as the human's side last wrote it), no engine needed. */
export function startDoorFor(homeRoot: string, callerEnv: NodeJS.ProcessEnv, nowMs: number): void {
  const paths = doorPaths(homeRoot);
  prepareDoorDir(paths);
  startSupervisedDoor(paths, readDoorEnv(paths) ?? doorEnvFrom(callerEnv, homeRoot), nowMs);
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
