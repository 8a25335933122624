// A done's change set captured off the calling thread: the door runs one event loop for every worker, and
// a capture of a large workspace (git add, diff and the patch check; ssh for a host) blocked it for tens of seconds.
// A worker thread runs the same synchronous capture; the caller awaits its answer while its loop keeps serving.

import { Worker } from "node:worker_threads";
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

/** Captures the change set in a worker thread of its own; resolves to it, or rejects with the capture's own error. */
export function captureOffLoop(job: CaptureJob): Promise<ChangeSet> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL("./capture-thread.js", import.meta.url), { workerData: job });
    let settled = false;
    thread.once("message", (a: ThreadAnswer) => {
      settled = true;
      if (a.ok) resolve(a.changeSet);
      else reject(rebuilt(a.error));
    });
    thread.once("error", (error) => {
      settled = true;
      reject(error);
    });
    thread.once("exit", (code) => {
      if (!settled) reject(new Error(`the change-set capture thread exited with code ${code} before answering`));
    });
  });
}
