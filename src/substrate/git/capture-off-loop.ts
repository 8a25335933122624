// A done's change set captured off the calling thread: the door runs one event loop for every worker, and
// a capture of a large workspace (git add, diff and the patch check; ssh for a host) blocked it for tens of seconds.
// A worker thread runs the same synchronous capture; the caller awaits its answer while its loop keeps serving.
// Threads are kept between dones: starting one (node's thread and the capture's modules) cost more than a small capture.

import { SHARE_ENV, Worker } from "node:worker_threads";
import type { ChangeSet } from "../../domain/deliverables/deliverable.js";
import { DocketError, type ErrorCategory } from "../../domain/errors.js";
import type { SshTarget } from "../ssh/connection.js";
import type { CaptureChangeSetInput } from "./changes.js";

/** What a thread captures: a local workspace, or (with `remote`) one on a host, fetched over ssh and checked here. */
export interface CaptureJob {
  input: CaptureChangeSetInput;
  remote?: { target: SshTarget; dir: string };
}

type WireError =
  | {
      docket: true;
      category: ErrorCategory;
      code: string;
      message: string;
      hint?: string;
      details?: Readonly<Record<string, unknown>>;
    }
  | { docket: false; message: string; code?: unknown; path?: unknown; syscall?: unknown };

export type ThreadAnswer = { ok: true; changeSet: ChangeSet } | { ok: false; error: WireError };

/** The error as thrown in the thread: a DocketError again, or an Error keeping its errno code and path (ENOSPC…). */
function rebuilt(e: WireError): Error {
  if (e.docket)
    return new DocketError(e.category, e.code, e.message, {
      ...(e.hint ? { hint: e.hint } : {}),
      ...(e.details ? { details: { ...e.details } } : {}),
    });
  return Object.assign(new Error(e.message), { code: e.code, path: e.path, syscall: e.syscall });
}

/** Threads waiting for their next job, unreferenced (they keep no process alive); at most KEEP_IDLE of them. */
const idle: Worker[] = [];
const KEEP_IDLE = 1;
/** A thread that answered a larger change set ends instead of waiting: its heap grew to hold it. */
const KEEP_AFTER_PATCH_CHARS = 1024 * 1024;

function startThread(): Worker {
  // SHARE_ENV: each job sees this process's environment as it is then (its PATH finds git), as a fresh thread would.
  const thread = new Worker(new URL("./capture-thread.js", import.meta.url), { env: SHARE_ENV });
  thread.on("error", () => {}); // a job's own listener rejects it; an idle thread's error only ends that thread
  thread.on("exit", () => {
    const at = idle.indexOf(thread);
    if (at !== -1) idle.splice(at, 1);
  });
  return thread;
}

function release(thread: Worker, keep: boolean): void {
  if (keep && idle.length < KEEP_IDLE) {
    thread.unref();
    idle.push(thread);
  } else void thread.terminate();
}

/** An idle thread made ready now, so that the first capture does not wait for one to start; none if one waits. */
export function readyCaptureThread(): void {
  if (idle.length === 0) release(startThread(), true);
}

/** Captures the change set in a worker thread (an idle one, else a new one); resolves to it, or rejects with the capture's own error. */
export function captureOffLoop(job: CaptureJob): Promise<ChangeSet> {
  const thread = idle.pop() ?? startThread();
  thread.ref();
  return new Promise((resolve, reject) => {
    const settle = () => {
      thread.off("message", answered);
      thread.off("error", failed);
      thread.off("exit", exited);
    };
    const answered = (a: ThreadAnswer) => {
      settle();
      release(thread, a.ok && a.changeSet.patch.length <= KEEP_AFTER_PATCH_CHARS);
      if (a.ok) resolve(a.changeSet);
      else reject(rebuilt(a.error));
    };
    const failed = (error: Error) => {
      settle();
      void thread.terminate();
      reject(error);
    };
    const exited = (code: number) => {
      settle();
      reject(new Error(`the change-set capture thread exited with code ${code} before answering`));
    };
    thread.on("message", answered);
    thread.on("error", failed);
    thread.on("exit", exited);
    try {
      thread.postMessage(job);
    } catch (error) {
      settle(); // a job that cannot be sent: the thread never saw it and waits for the next one
      release(thread, true);
      reject(error);
    }
  });
}
