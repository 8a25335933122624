// The pi worker's calls through its door: in the order pi made them (a turn's start before its docket_done, a tool's
// start before its end), each waiting for the one before it; only the inbox long-poll and the heartbeat run beside
// them. A fence refusal means this process was replaced: every loop stops and no further call is made.

import type { DoorCall } from "../../../domain/door.js";
import { isDocketError } from "../../../domain/errors.js";
import { callDoor, type Door } from "../../shared/door-client.js";

export interface WorkerCalls {
  /** Runs `fn` after every call queued before it. */
  inOrder<T>(fn: () => Promise<T>): Promise<T>;
  /** One door call; a refusal is logged as an event and gives undefined. */
  guarded<T>(what: string, call: DoorCall, args: object, options?: { waitMs?: number }): Promise<T | undefined>;
  /** An activity event, never awaited. */
  event(e: Record<string, unknown>): void;
  /** True once the fence refused a call: this process was replaced. */
  fencedOut(): boolean;
}

/** Calls through `door`; `onFenced` stops the caller's loops when the fence refuses one. */
export function workerCalls(door: Door, onFenced: () => void): WorkerCalls {
  let order: Promise<unknown> = Promise.resolve();
  let fenced = false;
  const inOrder = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = order.then(fn, fn);
    order = next.catch(() => undefined);
    return next;
  };
  async function guarded<T>(
    what: string,
    call: DoorCall,
    args: object,
    options: { waitMs?: number } = {},
  ): Promise<T | undefined> {
    if (fenced) return undefined;
    try {
      const send = () => callDoor<T>(door, call, args, options);
      return await (call === "inbox-wait" || call === "heartbeat" ? send() : inOrder(send));
    } catch (error) {
      if (isDocketError(error) && error.category === "fenced") {
        fenced = true;
        onFenced();
      }
      // The events file is the last place to record this; if the door cannot take it, the error is lost by design.
      await callDoor(door, "event", {
        event: { type: "error", during: what, message: (error as Error).message },
      }).catch(() => undefined);
      return undefined;
    }
  }
  return { inOrder, guarded, event: (e) => void guarded("event", "event", { event: e }), fencedOut: () => fenced };
}
