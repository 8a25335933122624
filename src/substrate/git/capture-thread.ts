// The body of a capture off the door's event loop: a worker thread kept between dones, running for each job the same
// synchronous capture and checks a command would (git, and ssh for a worker on a host), posting the change set or the
// error back. What it learns once (git's path, a repository's common dir) it keeps for the next job.

import { parentPort } from "node:worker_threads";
import { isDocketError } from "../../domain/errors.js";
import { remoteChangeBytes, remoteHost } from "../ssh/host.js";
import { captureChangeSet, freezeCapturedBytes } from "./changes.js";
import type { CaptureJob, ThreadAnswer } from "./capture-off-loop.js";

function answer(job: CaptureJob): ThreadAnswer {
  try {
    const { input, remote } = job;
    const changeSet = remote
      ? freezeCapturedBytes(
          input,
          remoteChangeBytes(remoteHost(remote.target, remote.dir), input.tree.worker, input.base, input.maxPatchBytes),
        )
      : captureChangeSet(input);
    return { ok: true, changeSet };
  } catch (error) {
    const e = error as Error & { code?: unknown; path?: unknown; syscall?: unknown };
    if (isDocketError(e))
      return {
        ok: false,
        error: {
          docket: true,
          category: e.category,
          code: e.code,
          message: e.message,
          hint: e.hint,
          details: e.details,
        },
      };
    return {
      ok: false,
      error: { docket: false, message: e?.message ?? String(error), code: e?.code, path: e?.path, syscall: e?.syscall },
    };
  }
}

parentPort?.on("message", (job: CaptureJob) => parentPort?.postMessage(answer(job)));
