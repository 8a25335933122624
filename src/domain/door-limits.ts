// What one worker may take of the door: connections, bytes per call, change-set size, idle time; and the
// named refusals a worker over a limit reads. The `door` config section: a project may only lower a limit.

import { DocketError } from "./errors.js";

export interface DoorLimits {
  /** Open connections one worker generation may hold on its socket; one more is closed at once. */
  connectionsPerWorker: number;
  /** Open connections on all worker sockets together (below the door's file descriptors). */
  connections: number;
  /** Bytes of one request line; a longer one is refused `call-too-large` and its connection closed. */
  callBytes: number;
  /** Bytes of a done's captured patch; a larger change set is refused `change-set-too-large`. */
  changeSetBytes: number;
  /** Seconds a connection may sit with no request in progress and nothing arriving before the door closes it. */
  idleSeconds: number;
}

export const DEFAULT_DOOR_LIMITS: DoorLimits = {
  connectionsPerWorker: 16,
  connections: 4096,
  callBytes: 8 * 1024 * 1024,
  changeSetBytes: 24 * 1024 * 1024,
  idleSeconds: 30,
};

/** Each key's config name, its allowed range and its unit (for the refusals' hints and the warnings). */
const DOOR_LIMIT_KEYS: Record<keyof DoorLimits, { key: string; min: number; max: number }> = {
  connectionsPerWorker: { key: "door.maxConnectionsPerWorker", min: 2, max: 1024 },
  connections: { key: "door.maxConnections", min: 16, max: 16384 },
  callBytes: { key: "door.maxCallBytes", min: 64 * 1024, max: 64 * 1024 * 1024 },
  // A frozen version holds its patch JSON-escaped and must stay readable (files/no-follow.ts: 32 MiB a file).
  changeSetBytes: { key: "door.maxChangeSetBytes", min: 64 * 1024, max: 30 * 1024 * 1024 },
  idleSeconds: { key: "door.idleSeconds", min: 1, max: 3600 },
};

const CONFIG_NAMES: Record<string, keyof DoorLimits> = {
  maxConnectionsPerWorker: "connectionsPerWorker",
  maxConnections: "connections",
  maxCallBytes: "callBytes",
  maxChangeSetBytes: "changeSetBytes",
  idleSeconds: "idleSeconds",
};

/**
 * The `door` section over the limits so far: each key an integer in its range. The user's file sets any value in
 * range; a project's may only lower one (a higher limit gives workers more of the human's machine).
 */
export function applyDoorLimits(
  limits: DoorLimits,
  raw: Record<string, unknown>,
  source: string,
  warnings: string[],
  trusted: boolean,
): void {
  for (const [name, value] of Object.entries(raw)) {
    const field = CONFIG_NAMES[name];
    if (field === undefined) {
      warnings.push(
        `${source} config door.${name} is not a door setting (${Object.keys(CONFIG_NAMES).join(", ")}); ignored`,
      );
      continue;
    }
    const { key, min, max } = DOOR_LIMIT_KEYS[field];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      warnings.push(`${source} config ${key} must be a whole number from ${min} to ${max}; ignored`);
    } else if (trusted || value <= limits[field]) limits[field] = value;
    else
      warnings.push(
        `${source} config ${key} ${value} would raise the limit ${limits[field]}; only your user config can`,
      );
  }
}

const mib = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;

/** A request line over the per-call byte cap: refused, nothing of it read or run. */
export function callTooLarge(limit: number): DocketError {
  const { key, max } = DOOR_LIMIT_KEYS.callBytes;
  return new DocketError(
    "refusal",
    "call-too-large",
    `the door takes at most ${limit} bytes (${mib(limit)}) in one call; this one was longer, so nothing of it was recorded`,
    {
      hint: `send less in one call (split a report into several, leave bulk out of the body); the human can raise the limit with ${key} in their user config (at most ${max})`,
      details: { limit },
    },
  );
}

/** A change set whose patch is larger than the cap: refused before anything is frozen. */
export function changeSetTooLarge(worker: string, limit: number): DocketError {
  const { key, max } = DOOR_LIMIT_KEYS.changeSetBytes;
  return new DocketError(
    "refusal",
    "change-set-too-large",
    `${worker}'s change set is over ${limit} bytes (${mib(limit)}) as a patch, the most a version may hold; nothing was frozen`,
    {
      hint: `leave generated or binary bulk out of the workspace (delete it or add it to .gitignore), then call docket_done again; the human can raise the limit with ${key} in their user config (at most ${max})`,
      details: { limit },
    },
  );
}
