// The door's names: its directory in the home, one socket per worker generation, the control socket, and the calls.
// Pure: a socket's name says which worker and generation it serves, so the door needs no table to know who is on it.

import { normalizeWorkerId } from "./ids.js";

/** The door's directory under the Docket home (0700: only the human's user can list it). */
export const DOOR_DIR = "door";
/** The longest socket name the door makes, for the path-length rule below. */
const LONGEST_SOCKET = "w99999-99999.sock";
/** The door's own socket: the human's side asks it to sync, explain a refusal, or report its state. */
export const CONTROL_SOCKET = "control.sock";
/**
 * The door's own files live in a subdirectory that every sandbox covers with an empty one: a file the door makes or
 * replaces after a worker started (state.json is renamed over at every change) is never visible to it (issue 42).
 */
export const DOOR_PRIVATE_DIR = "private";
/** Written by the human's side: the environment a (re)started door runs with. */
export const DOOR_ENV_FILE = `${DOOR_PRIVATE_DIR}/door.env`;
/** Written by the door: its pid and the generations it serves (a projection for `docket doctor`). */
export const DOOR_STATE_FILE = `${DOOR_PRIVATE_DIR}/state.json`;
export const DOOR_LOG_FILE = `${DOOR_PRIVATE_DIR}/door.log`;
/** Where those files were before they moved into DOOR_PRIVATE_DIR: still hidden from workers of an older home. */
export const DOOR_LEGACY_FILES = ["door.env", "state.json", "door.log"] as const;
/** Claimed (O_EXCL) by whoever starts a door, so a burst of spawns or of workers' retries starts one door, not one each. */
export const DOOR_START_FILE = "starting";

/**
 * The door's node command line. Its young generation is held to 1 MB halves (V8 grows them to 16 MB in a busy
 * process): its calls allocate little, so it scavenges more often and holds ~10 MB less, all its long life.
 */
export function doorCommand(bin: string, doorDir: string): string[] {
  return ["--max-semi-space-size=1", bin, "door", "serve", doorDir];
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

/** Every call a worker makes through its door (DESIGN §8b). */
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
  if (new TextEncoder().encode(`${inHome}/${LONGEST_SOCKET}`).length <= SOCKET_PATH_MAX) return inHome;
  return `/tmp/docket-${uid}/${homeHash.slice(0, 16)}`;
}
