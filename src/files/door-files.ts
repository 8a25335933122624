// The door's two directories (docs/door.md): the worker sockets (bound read-only into sandboxes) and, beside them, the
// human side's control directory (control and supervisor sockets, door.env, state, log). Both 0700, real, this user's.

import { linkSync, lstatSync, readdirSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import {
  CONTROL_SOCKET,
  DOOR_DIR,
  DOOR_ENV_FILE,
  DOOR_LOG_FILE,
  DOOR_START_FILE,
  DOOR_STATE_FILE,
  doorControlDirFor,
  doorDirFor,
  EXPLAIN_SOCKET,
  parseDoorSocketName,
  SUPERVISOR_SOCKET,
  SUPERVISOR_STATE_FILE,
} from "../domain/door.js";
import { internalError } from "../domain/errors.js";
import { writeFileAtomic } from "./atomic.js";
import { readJsonFile } from "./json-file.js";
import { ensurePrivateDir } from "./private.js";
import { readLaunchEnv, writeLaunchEnv } from "./workers/launch-env.js";

export interface DoorPaths {
  /** The worker sockets and the explain socket: what a sandbox is shown (read-only). */
  dir: string;
  explain: string;
  socket(name: string): string;
  /** The human side's directory: nothing in it is bound into a sandbox or forwarded to a host. */
  controlDir: string;
  control: string;
  supervisor: string;
  supervisorState: string;
  env: string;
  state: string;
  log: string;
  /** Claimed by whoever starts a supervisor, so a burst of spawns starts one, not one each. */
  starting: string;
}

/** The door directory of a home (see doorDirFor: in the home, or a short private one for a long home path). */
export function doorDirOf(homeRoot: string): string {
  return doorDirFor(
    homeRoot,
    typeof process.getuid === "function" ? process.getuid() : 0,
    createHash("sha256").update(homeRoot).digest("hex"),
  );
}

export function doorPaths(homeRoot: string): DoorPaths {
  return doorPathsOfDir(doorDirOf(homeRoot));
}

/** The paths of the door whose worker sockets are in `dir` (its control directory sits beside it). */
export function doorPathsOfDir(dir: string): DoorPaths {
  const controlDir = doorControlDirFor(dir);
  return {
    dir,
    explain: join(dir, EXPLAIN_SOCKET),
    socket: (name) => join(dir, name),
    controlDir,
    control: join(controlDir, CONTROL_SOCKET),
    supervisor: join(controlDir, SUPERVISOR_SOCKET),
    supervisorState: join(controlDir, SUPERVISOR_STATE_FILE),
    env: join(controlDir, DOOR_ENV_FILE),
    state: join(controlDir, DOOR_STATE_FILE),
    log: join(controlDir, DOOR_LOG_FILE),
    starting: join(controlDir, DOOR_START_FILE),
  };
}

/** Makes both door directories (0700); refuses one (or, outside the home, a parent) that is a link, shared or another user's. */
export function prepareDoorDir(paths: DoorPaths): void {
  ensurePrivateDir(paths.dir);
  ensurePrivateDir(paths.controlDir);
  const outside = basename(paths.dir) !== DOOR_DIR;
  for (const dir of outside ? [dirname(paths.dir), paths.dir, paths.controlDir] : [paths.dir, paths.controlDir]) {
    const st = lstatSync(dir);
    if (
      !st.isDirectory() ||
      (typeof process.getuid === "function" && st.uid !== process.getuid()) ||
      (outside && (st.mode & 0o077) !== 0)
    ) {
      throw internalError(
        "door-dir-unsafe",
        `${dir} is not a private directory of this user; Docket will not put worker sockets there`,
      );
    }
  }
}

export function writeDoorEnv(paths: DoorPaths, env: Readonly<Record<string, string>>): void {
  writeLaunchEnv(paths.env, env, "the environment Docket's door runs with (written by the human's side); never edit");
}

export function readDoorEnv(paths: DoorPaths): Record<string, string> | undefined {
  return readLaunchEnv(paths.env);
}

export interface DoorState {
  pid: number;
  startedAt: string;
  /** Socket names the door listens on, with the worker generation each serves. */
  sockets: { name: string; worker: string; generation: number }[];
}

export function writeDoorState(paths: DoorPaths, state: DoorState): void {
  writeFileAtomic(paths.state, `${JSON.stringify(state)}\n`);
}

export interface SupervisorState {
  pid: number;
  startedAt: string;
}

export function writeSupervisorState(paths: DoorPaths, state: SupervisorState): void {
  writeFileAtomic(paths.supervisorState, `${JSON.stringify(state)}\n`);
}

export function readSupervisorState(paths: DoorPaths): SupervisorState | undefined {
  const r = readJsonFile(paths.supervisorState);
  if (r.ok !== true) return undefined;
  const v = r.value as Partial<SupervisorState> | null;
  return v && typeof v.pid === "number" && Number.isInteger(v.pid) && typeof v.startedAt === "string"
    ? { pid: v.pid, startedAt: v.startedAt }
    : undefined;
}

/** Removes a file of the control directory (absent is fine). */
export function removeControlFile(path: string): void {
  rmSync(path, { force: true });
}

export function readDoorState(paths: DoorPaths): DoorState | undefined {
  const r = readJsonFile(paths.state);
  if (r.ok !== true) return undefined;
  const v = r.value as Partial<DoorState> | null;
  if (
    !v ||
    typeof v.pid !== "number" ||
    !Number.isInteger(v.pid) ||
    typeof v.startedAt !== "string" ||
    !Array.isArray(v.sockets)
  )
    return undefined;
  const sockets = v.sockets.filter(
    (s): s is DoorState["sockets"][number] => typeof s?.name === "string" && parseDoorSocketName(s.name) !== undefined,
  );
  return { pid: v.pid, startedAt: v.startedAt, sockets };
}

/** The socket files in the door directory (worker sockets and the explain socket), by name. */
export function listDoorSockets(paths: DoorPaths): string[] {
  let names: string[];
  try {
    names = readdirSync(paths.dir);
  } catch {
    return [];
  }
  return names.filter((n) => {
    try {
      return lstatSync(join(paths.dir, n)).isSocket();
    } catch {
      return false;
    }
  });
}

/** Removes a socket file (absent is fine); anything that is not a socket is left alone. */
export function removeSocketFile(path: string): boolean {
  try {
    if (!lstatSync(path).isSocket()) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The inode of a socket file, so a door can tell its own socket from one that replaced it; undefined when absent. */
export function socketInode(path: string): number | undefined {
  try {
    const st = lstatSync(path);
    return st.isSocket() ? st.ino : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts the listening socket bound at `temp` at `path` in one step: a rename replaces what was there (a worker's
 * socket); a link refuses a path that exists (the control socket, whose owner must be asked first). Either way the
 * path never names a socket nobody listens on yet, and the temporary name is gone. False when `path` was taken.
 */
export function placeSocket(temp: string, path: string, how: "replace" | "claim"): boolean {
  if (how === "replace") {
    renameSync(temp, path);
    return true;
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  unlinkSync(temp);
  return true;
}

/** Removes the socket at `path` only while it is still the one with inode `ino` (never one put there since). */
export function removeSocketIfInode(path: string, ino: number | undefined): void {
  if (ino !== undefined && socketInode(path) === ino) removeSocketFile(path);
}
