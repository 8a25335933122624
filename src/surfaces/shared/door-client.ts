// The worker side of the door: one NDJSON request per connection on this generation's socket, nothing else loaded.
// A call that cannot reach the door (none yet, stale, died mid-call) is retried with the same request, then one named error.

import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { doorDirFor, doorSocketName, EXPLAIN_SOCKET, type DoorCall } from "../../domain/door.js";
import { DocketError, refusal, type ErrorCategory } from "../../domain/errors.js";
import { parseWorkerIdentity, type WorkerIdentity } from "../../domain/workers/identity.js";
import { exchangeLine, Unreached } from "./door-line.js";

export interface Door {
  /** This generation's socket (`DOCKET_DOOR`). */
  socket: string;
  who: Required<WorkerIdentity>;
  /** The socket is a forward over ssh to a door on another machine (DOCKET_DOOR_FORWARDED=1): never start a door here. */
  forwarded?: boolean;
}

/** How long a call keeps trying to reach a door that is starting, restarting or gone, before it gives up. */
export const DOOR_PATIENCE_MS = 20_000;

/**
 * The worker's door from its launch environment: `DOCKET_DOOR`, or — for a process given only a home — that home's
 * socket for this generation. Identity errors are the same usage errors as ever.
 */
export function doorOf(env: NodeJS.ProcessEnv): Door {
  const who = parseWorkerIdentity(env) as Required<WorkerIdentity>;
  const given = env.DOCKET_DOOR?.trim();
  if (given) return { socket: resolve(given), who, ...(env.DOCKET_DOOR_FORWARDED === "1" ? { forwarded: true } : {}) };
  const load = createRequire(import.meta.url); // node:os and node:crypto: only a process given no DOCKET_DOOR needs them
  const homedir = () => (load("node:os") as typeof import("node:os")).homedir();
  const home = env.DOCKET_HOME
    ? resolve(env.DOCKET_HOME)
    : join(env.PI_CODING_AGENT_DIR ? resolve(env.PI_CODING_AGENT_DIR) : join(homedir(), ".pi", "agent"), "docket");
  const dir = doorDirFor(
    home,
    typeof process.getuid === "function" ? process.getuid() : 0,
    (load("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(home).digest("hex"),
  );
  return { socket: join(dir, doorSocketName(who.worker, who.generation)), who };
}

interface Reply {
  ok?: boolean;
  result?: unknown;
  error?: { category?: string; code?: string; message?: string; hint?: string; [k: string]: unknown };
  retry?: boolean;
}

const CATEGORIES: readonly ErrorCategory[] = [
  "validation",
  "refusal",
  "conflict",
  "fenced",
  "not-found",
  "usage",
  "internal",
];

function errorOf(shape: NonNullable<Reply["error"]>): DocketError {
  const { category, code, message, hint, ...details } = shape;
  const cat = CATEGORIES.find((c) => c === category) ?? "internal";
  return new DocketError(cat, code ?? "door-error", message ?? "the door refused the call", {
    ...(hint ? { hint } : {}),
    ...(Object.keys(details).length ? { details } : {}),
  });
}

/** One request and its one reply line; `waitMs` bounds a reply that never comes (a long-poll adds its own wait). */
async function exchange(socket: string, request: object, waitMs: number, background = false): Promise<Reply> {
  const line = await exchangeLine(socket, `${JSON.stringify(request)}\n`, { waitMs, background });
  try {
    return JSON.parse(line) as Reply;
  } catch {
    throw new Unreached("the door's reply was not JSON", false);
  }
}

/** How long a call waits for its reply once the door has it; a done's capture runs while the door serves others. */
const REPLY_WAIT_MS = 30_000;
const DONE_REPLY_WAIT_MS = 300_000;

/** Calls the client keys itself (the agent names no call for them): a retry after the door died lands them once. */
const CLIENT_KEYED: ReadonlySet<DoorCall> = new Set<DoorCall>(["heartbeat", "turn", "touches", "event"]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs one call through the door and returns its result; a refusal is thrown as the engine's own DocketError.
 * Every retry sends the same request (its idempotency key inside), so a call the door committed before dying
 * returns its first result instead of acting twice.
 */
export async function callDoor<T = unknown>(
  door: Door,
  call: DoorCall,
  args: object = {},
  options: { waitMs?: number } = {},
): Promise<T> {
  // The periodic calls carry no call id of the agent's: each gets its own here, once, so its every retry has the same.
  const keyed = CLIENT_KEYED.has(call) && !("callId" in args) ? { ...args, callId: freshCallId(call) } : args;
  const request = {
    call,
    worker: door.who.worker,
    generation: door.who.generation,
    token: door.who.runToken,
    args: keyed,
  };
  const deadline = Date.now() + DOOR_PATIENCE_MS;
  const explainSocket = join(dirname(door.socket), EXPLAIN_SOCKET);
  let pause = 20;
  let revived = 0;
  for (;;) {
    let reason: string;
    try {
      const wait = (call === "done" ? DONE_REPLY_WAIT_MS : REPLY_WAIT_MS) + (options.waitMs ?? 0);
      const reply = await exchange(door.socket, request, wait, options.waitMs !== undefined);
      if (reply.ok) return reply.result as T;
      throw errorOf(reply.error ?? {});
    } catch (error) {
      if (!(error instanceof Unreached)) throw error;
      reason = error.reason;
      // A forwarded door is down while its tunnel is: wait for the tunnel's keeper, never start a door on this host.
      if (error.noSocket && !door.forwarded) {
        // No socket for this generation: the door may be starting, may not serve it (replaced, exited), or is gone.
        try {
          // A replaced generation's exit is still its own to record (on its launch row): the explain socket takes that.
          const exit = call === "exited" ? { exited: args } : {};
          const why = await exchange(
            explainSocket,
            {
              call: "explain",
              worker: door.who.worker,
              generation: door.who.generation,
              token: door.who.runToken,
              ...exit,
            },
            5_000,
          );
          if (why.error) throw errorOf(why.error);
          if (why.ok && why.result !== undefined) return why.result as T;
        } catch (inner) {
          if (!(inner instanceof Unreached)) throw inner;
          // No door at all: its supervisor restarts it; an uncontained worker also starts one if none is starting.
          if (inner.noSocket && Date.now() - revived > 2_000) {
            revived = Date.now();
            (await import("../../substrate/door-revive.js")).reviveDoor(dirname(door.socket));
          }
        }
      }
    }
    if (Date.now() + pause > deadline) {
      throw refusal(
        "door-unreachable",
        `the Docket door at ${door.socket} could not be reached for ${Math.round(DOOR_PATIENCE_MS / 1000)} s (${reason}); ${call} may not have been recorded`,
        "stop and tell the human: `docket doctor` shows the door; repeating the same call later lands it at most once",
      );
    }
    await sleep(pause);
    pause = Math.min(pause * 2, 500);
  }
}

/** A fresh idempotency key for a call the agent gave none: every retry of this one call reuses it. */
export function freshCallId(prefix: string): string {
  return `${prefix}-${process.pid.toString(36)}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
