// Starts a door for a home whose door is gone, as whoever next needs it (tmux's rule): Docket's own node and bin,
// detached, argv only. The door takes its environment from the home's door.env, never from this caller.
// A start is claimed first (one O_EXCL file), so a burst of spawns or of workers' retries starts one door, not one each.
// Node builtins and the pure door names only: a worker's small client loads it (by name in the architecture test).

import { spawn } from "node:child_process";
import { closeSync, constants, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DOOR_LOG_FILE, DOOR_START_FILE, doorCommand } from "../domain/door.js";

/** `dist/src/substrate` → the package's `bin/docket.js`. */
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "docket.js");

const IDENTITY = /^(DOCKET_WORKER_ID|DOCKET_GENERATION|DOCKET_RUN_TOKEN|DOCKET_DOOR)$/;

/** A start claimed longer ago than this is taken to have failed: the next caller may start the door again. */
const START_CLAIM_MS = 10_000;

/** True when this caller may start the door of `doorDir`: nobody else claimed a start in the last START_CLAIM_MS. */
export function claimDoorStart(doorDir: string, nowMs: number): boolean {
  const claim = join(doorDir, DOOR_START_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(
        openSync(claim, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600),
      );
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && attempt === 0) {
        try {
          mkdirSync(doorDir, { recursive: true, mode: 0o700 }); // never made yet: the door checks it is private before use
        } catch {
          return false;
        }
        continue;
      }
      if (code !== "EEXIST") return false;
      let age: number;
      try {
        age = nowMs - statSync(claim).mtimeMs;
      } catch {
        continue; // released meanwhile: claim again
      }
      if (age < START_CLAIM_MS) return false;
      try {
        rmSync(claim, { force: true });
      } catch {
        return false; // not ours to clear (a sandbox sees the door's files read-only): its door is the human's to start
      }
    }
  }
  return false;
}

/** The door is listening (or lost to another door): its start claim is spent. */
export function releaseDoorStart(doorDir: string): void {
  rmSync(join(doorDir, DOOR_START_FILE), { force: true });
}

export function reviveDoor(doorDir: string): void {
  if (!claimDoorStart(doorDir, Date.now())) return; // another caller is starting it
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!IDENTITY.test(k)) env[k] = v;
  let log: number | "ignore" = "ignore";
  try {
    mkdirSync(dirname(join(doorDir, DOOR_LOG_FILE)), { mode: 0o700 });
  } catch {
    // there already (or not ours to make): the log is opened below or left out
  }
  try {
    log = openSync(
      join(doorDir, DOOR_LOG_FILE),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
  } catch {
    // no log: the door still starts
  }
  try {
    const child = spawn(process.execPath, doorCommand(BIN, doorDir), {
      cwd: "/",
      env,
      detached: true,
      stdio: ["ignore", log, log],
    });
    child.on("error", () => {}); // the caller keeps retrying and names the door as unreachable if this never comes up
    child.unref();
  } catch {
    // same: the bounded retry reports it
  } finally {
    if (typeof log === "number") closeSync(log);
  }
}
