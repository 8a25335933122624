// Starts a home's door supervisor — and, from the supervisor, the door — as tmux's clients start its server: Docket's
// own node and bin, detached, argv only. A supervisor start is claimed first (one O_EXCL file in the control directory),
// so a burst of spawns or of workers' retries starts one, not one each. The door takes its environment from door.env.
// Node builtins and the pure door names only: a worker's small client loads it (by name in the architecture test).

import { spawn } from "node:child_process";
import { accessSync, closeSync, constants, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DOOR_LOG_FILE, DOOR_START_FILE, doorCommand, doorControlDirFor, supervisorCommand } from "../domain/door.js";

/** `dist/src/substrate` → the package's `bin/docket.js`. */
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "docket.js");

const IDENTITY = /^(DOCKET_WORKER_ID|DOCKET_GENERATION|DOCKET_RUN_TOKEN|DOCKET_DOOR|DOCKET_DOOR_FORWARDED)$/;

/** A start claimed longer ago than this is taken to have failed: the next caller may start it again. */
const START_CLAIM_MS = 10_000;

/** True when this caller may start the supervisor: nobody else claimed a start in `controlDir` in the last START_CLAIM_MS. */
export function claimDoorStart(controlDir: string, nowMs: number): boolean {
  const claim = join(controlDir, DOOR_START_FILE);
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
          mkdirSync(controlDir, { recursive: true, mode: 0o700 }); // never made yet: the supervisor checks it is private
        } catch {
          return false; // not ours to make (a sandbox has no control directory): its door is supervised outside
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
        return false;
      }
    }
  }
  return false;
}

/** The supervisor serves (or found another that does): its start claim is spent. */
export function releaseDoorStart(controlDir: string): void {
  rmSync(join(controlDir, DOOR_START_FILE), { force: true });
}

/** The running child the supervisor watches; `exited` settles when it ends, however it ends. */
export interface DoorChild {
  pid: number | undefined;
  exited: Promise<void>;
}

/** Starts `node …argv` detached (its own session: no terminal's or supervisor's signal reaches it), output to the log. */
function startDetached(argv: string[], env: NodeJS.ProcessEnv, controlDir: string): DoorChild {
  let log: number | "ignore" = "ignore";
  try {
    log = openSync(
      join(controlDir, DOOR_LOG_FILE),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
  } catch {
    // no log: it still starts
  }
  try {
    const child = spawn(process.execPath, argv, { cwd: "/", env, detached: true, stdio: ["ignore", log, log] });
    const exited = new Promise<void>((done) => {
      child.on("error", () => done()); // the caller's bounded wait reports a door that never came up
      child.on("exit", () => done());
    });
    child.unref();
    return { pid: child.pid, exited };
  } catch {
    return { pid: undefined, exited: Promise.resolve() };
  } finally {
    if (typeof log === "number") closeSync(log);
  }
}

const withoutIdentity = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!IDENTITY.test(k)) out[k] = v;
  return out;
};

/** Starts the supervisor of the door whose worker sockets are in `doorDir` (the caller claimed the start). */
export function startSupervisor(doorDir: string, env: NodeJS.ProcessEnv): void {
  startDetached(supervisorCommand(BIN, doorDir), withoutIdentity(env), doorControlDirFor(doorDir));
}

/** Starts the door itself: only its supervisor does (and tests). */
export function startDoorProcess(doorDir: string, env: NodeJS.ProcessEnv): DoorChild {
  return startDetached(doorCommand(BIN, doorDir), withoutIdentity(env), doorControlDirFor(doorDir));
}

/**
 * A worker's client found neither its socket nor the explain socket answering: it starts the supervisor (which starts
 * the door), unless another start is claimed. Inside a sandbox the control directory is not there: nothing happens,
 * and the supervisor outside restarts the door by itself.
 */
export function reviveDoor(doorDir: string): void {
  try {
    accessSync(doorDir, constants.W_OK);
  } catch (error) {
    // Read-only: a sandbox's view, where a start could only start one inside it. Absent: never made yet, start it.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return;
  }
  if (claimDoorStart(doorControlDirFor(doorDir), Date.now())) startSupervisor(doorDir, process.env);
}
