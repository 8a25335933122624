// docket_done as the door runs it: the change set is captured in a thread, so the door's one event loop
// keeps serving every other worker while git reads a large workspace; then the same claim and publish as `done`.

import { placeOf } from "../places/place.js";
import type { EngineContext } from "../context.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import {
  captureInput,
  freezeVersion,
  planDone,
  priorVersion,
  publishDone,
  type DoneInput,
  type DoneResult,
} from "./protocol.js";

/** One capture per call at a time: a retry of a call whose capture still runs waits for that one (door-wide). */
const capturing = new Map<string, Promise<DoneResult>>();

/**
 * `done`, with the capture awaited off the event loop. After it, the call is looked up again: a retry of the same
 * call id that landed meanwhile is answered with its version, so a version is never claimed twice for one call.
 */
export function doneOffLoop(ctx: EngineContext, who: WorkerIdentity, input: DoneInput): Promise<DoneResult> {
  const plan = planDone(who, input);
  const id = `${ctx.home.root}\u0000${plan.key}`;
  const running = capturing.get(id);
  if (running) return running;
  const call = (async () => {
    const prior = priorVersion(ctx, who, plan);
    if ("pointer" in prior) return publishDone(ctx, who, plan, prior.pointer);
    const what = captureInput(ctx, prior.row);
    const changeSet =
      what &&
      (await ctx.git.captureOffLoop({
        input: what,
        ...placeOf(ctx, prior.row).captureSource(prior.row),
      }));
    const now = priorVersion(ctx, who, plan); // the fence and the call, as they are after the capture
    const pointer = "pointer" in now ? now.pointer : freezeVersion(ctx, now.row, who, plan, changeSet);
    return publishDone(ctx, who, plan, pointer);
  })();
  capturing.set(id, call);
  return call.finally(() => capturing.delete(id));
}
