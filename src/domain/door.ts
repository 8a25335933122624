// The door's names: its directory of worker sockets (the one place a sandbox sees), the human side's control directory
// beside it, and the calls. Pure: a socket's name says which worker and generation it serves, so no table is needed.

import { normalizeWorkerId } from "./ids.js";

/** The door's directory of worker sockets under the Docket home (0700), bound read-only into every sandbox. */
export const DOOR_DIR = "door";
/** The one socket beside the workers' that is not a worker's: it only explains why a generation is not served. */
export const EXPLAIN_SOCKET = "explain.sock";
/** The longest socket names made in the door directory and in the control directory, for the path-length rule below. */
const LONGEST_SOCKET = "w99999-99999.sock";
const LONGEST_CONTROL_SOCKET = "supervisor.sock";
/** In the control directory: the door's own socket (one door per home), for the human's side only (status, sync, stop). */
export const CONTROL_SOCKET = "control.sock";
/** In the control directory: the supervisor's socket (one supervisor per home); a connect tells it is alive. */
export const SUPERVISOR_SOCKET = "supervisor.sock";
/** Written by the human's side: the environment a (re)started door runs with. */
export const DOOR_ENV_FILE = "door.env";
/** Written by the door: its pid and the generations it serves (a projection for `docket doctor`). */
export const DOOR_STATE_FILE = "state.json";
/** Written by the supervisor: its pid (for `docket doctor`, which cannot connect). */
export const SUPERVISOR_STATE_FILE = "supervisor.json";
export const DOOR_LOG_FILE = "door.log";
/** Claimed (O_EXCL) by whoever starts a supervisor, so a burst of spawns or of retries starts one, not one each. */
export const DOOR_START_FILE = "starting";

/** The human side's directory beside the door directory: never bound into a sandbox, never forwarded to a host. */
export function doorControlDirFor(doorDir: string): string {
  return `${doorDir.replace(/\/+$/, "")}-control`;
}

/**
 * The door's node command line. Its young generation is held to 1 MB halves (V8 grows them to 16 MB in a busy
 * process): its calls allocate little, so it scavenges more often and holds ~10 MB less, all its long life.
 */
export function doorCommand(bin: string, doorDir: string): string[] {
  return ["--max-semi-space-size=1", bin, "door", "serve", doorDir];
}

/** The supervisor's node command line: it allocates almost nothing, so the same small young generation. */
export function supervisorCommand(bin: string, doorDir: string): string[] {
  return ["--max-semi-space-size=1", bin, "door", "supervise", doorDir];
}

/** `w3-2.sock`: worker w3, generation 2. */
export function doorSocketName(worker: string, generation: number): string {
  return `${worker}-${generation}.sock`;
}

export function parseDoorSocketName(name: string): { worker: string; generation: number } | undefined {
  const m = /^(w[1-9][0-9]*)-([1-9][0-9]*)\.sock$/.exec(name);
  if (!m || normalizeWorkerId(m[1]!) !== m[1]) return undefined;
  return { worker: m[1]!, generation: Number(m[2]) };
}

/** Every call a worker makes through its door (docs/door.md). */
export const DOOR_CALLS = [
  "todos",
  "wait",
  "done",
  "fail",
  "consult",
  "note",
  "report",
  "reconcile",
  "heartbeat",
  "exited",
  "turn",
  "hook",
  "inbox-claim",
  "inbox-read",
  "inbox-wait",
  "deliver-pane",
  "event",
  "touches",
  "guardrails",
  "gate",
  "mcp-list",
  "mcp-call",
] as const;
export type DoorCall = (typeof DOOR_CALLS)[number];

export function isDoorCall(value: unknown): value is DoorCall {
  return typeof value === "string" && (DOOR_CALLS as readonly string[]).includes(value);
}

/** A Unix socket path longer than this cannot be bound on Linux (sun_path is 108 bytes with its NUL). */
export const SOCKET_PATH_MAX = 107;

/**
 * Where a home's door keeps its sockets: `<home>/door`, or — when that would make a socket path too long to bind —
 * a private directory named by the home's hash under `/tmp/docket-<uid>/` (fixed, so every process finds the same one).
 */
export function doorDirFor(homeRoot: string, uid: number, homeHash: string): string {
  const inHome = `${homeRoot.replace(/\/+$/, "")}/${DOOR_DIR}`;
  const longest = Math.max(
    new TextEncoder().encode(`${inHome}/${LONGEST_SOCKET}`).length,
    new TextEncoder().encode(`${doorControlDirFor(inHome)}/${LONGEST_CONTROL_SOCKET}`).length,
  );
  if (longest <= SOCKET_PATH_MAX) return inHome;
  return `/tmp/docket-${uid}/${homeHash.slice(0, 16)}`;
}
