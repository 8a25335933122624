// The door's directory in the home: its sockets, its launch environment and its state file (DESIGN §8b).
// The directory is 0700 and must be a real directory of this user; a socket is only ever removed, never followed.

import { linkSync, lstatSync, readdirSync, renameSync, unlinkSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import {
  CONTROL_SOCKET,
  DOOR_DIR,
  DOOR_ENV_FILE,
  DOOR_LOG_FILE,
  DOOR_START_FILE,
  DOOR_STATE_FILE,
  doorDirFor,
  parseDoorSocketName,
} from "../domain/door.js";
import { internalError } from "../domain/errors.js";
import { writeFileAtomic } from "./atomic.js";
import { readJsonFile } from "./json-file.js";
import { ensurePrivateDir } from "./private.js";
import { readLaunchEnv, writeLaunchEnv } from "./workers/launch-env.js";

export interface DoorPaths {
  dir: string;
  control: string;
  env: string;
  state: string;
  log: string;
  /** Claimed by whoever starts a door, so a burst of spawns starts one door, not one each. */
  starting: string;
  socket(name: string): string;
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
  const dir = doorDirOf(homeRoot);
  return {
    dir,
    control: join(dir, CONTROL_SOCKET),
    env: join(dir, DOOR_ENV_FILE),
    state: join(dir, DOOR_STATE_FILE),
    log: join(dir, DOOR_LOG_FILE),
    starting: join(dir, DOOR_START_FILE),
    socket: (name) => join(dir, name),
  };
}

/** Makes the door directory (0700) and refuses one (or, outside the home, a parent) that is a link, shared or another user's. */
export function prepareDoorDir(paths: DoorPaths): void {
  ensurePrivateDir(paths.dir);
  ensurePrivateDir(dirname(paths.state)); // the door's own files: hidden from every sandbox as one directory
  const outside = basename(paths.dir) !== DOOR_DIR;
  for (const dir of outside ? [dirname(paths.dir), paths.dir] : [paths.dir]) {
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

/** The socket files in the door directory (worker sockets and the control socket), by name. */
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
