// Every ledger command a worker call makes is fenced by construction: the step is built here, and its body runs only
// after the fence (current generation, its run token, not exited) passed inside the same transaction. The
// architecture test lets no other engine module call the fence, so a new worker call cannot forget it.

import type { Worker } from "../../domain/workers/worker.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { CommandStep, Tx } from "../../ledger/core/runner.js";
import { checkFence } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";

/** One worker call's command: its name, who makes it, the request its idempotency hash covers, and its key. */
export interface WorkerCommand {
  command: string;
  who: WorkerIdentity;
  request: unknown;
  key?: string | undefined;
}

/** The body of a worker call's command, given the worker row the fence read. */
export type FencedBody<R> = (tx: Tx, row: Worker) => R;

/** The call as a step of a batch (`runAll`): the fence runs first, in the step's own savepoint. */
export function fencedStep<R>(call: WorkerCommand, fn: FencedBody<R>): CommandStep<R> {
  return { command: call.command, request: call.request, key: call.key, fn: (tx) => fn(tx, checkFence(tx, call.who)) };
}

/** Runs the call as one command; a replayed key returns the stored result without running the body again. */
export function runFenced<R>(ctx: EngineContext, call: WorkerCommand, fn: FencedBody<R>): R {
  const step = fencedStep(call, fn);
  return ctx.commands.run(step.command, step.request, step.fn, { key: step.key }).result;
}
