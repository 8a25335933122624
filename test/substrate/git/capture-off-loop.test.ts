// The door's captures run in worker threads kept between dones: one idle thread serves the next capture, captures at
// once each get a thread, a refused capture's thread ends, a job that cannot be sent leaves it waiting; an idle thread
// keeps no process alive (this file would not end); a thread readied ahead serves the first capture.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureOffLoop, readyCaptureThread } from "../../../src/substrate/git/capture-off-loop.js";
import type { CaptureChangeSetInput } from "../../../src/substrate/git/changes.js";
import { isDocketError } from "../../../src/domain/errors.js";
import { git, gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

/** A worktree whose admin directory is `docket-<worker>`, as spawn names it. */
function worktree(t: { after(fn: () => void): void }, worker: string): CaptureChangeSetInput {
  const project = gitRepo(tempDir(t, "docket-col-"), { "a.txt": "one\n" });
  const ws = join(tempDir(t, "docket-col-ws-"), `docket-${worker}`);
  git(project, "worktree", "add", "-q", "--detach", ws, "HEAD");
  const base = git(ws, "rev-parse", "HEAD").trim();
  return { tree: { projectRoot: project, workspace: ws, worker, method: "worktree" }, base, ref: "r" };
}

/** Runs `fn` and counts the worker threads this process started meanwhile. */
async function threadsStarted<T>(fn: () => Promise<T>): Promise<{ result: T; started: number }> {
  let started = 0;
  const count = () => started++;
  process.on("worker", count);
  try {
    return { result: await fn(), started };
  } finally {
    process.off("worker", count);
  }
}

test("one kept thread serves capture after capture; captures at once get a thread each; a refused capture's thread ends; an unsendable job leaves it waiting", async (t) => {
  const w1 = worktree(t, "w1");
  const w2 = worktree(t, "w2");
  writeFileSync(join(w1.tree.workspace, "a.txt"), "ONE\n");
  writeFileSync(join(w2.tree.workspace, "b.txt"), "bee\n");

  const first = await threadsStarted(() => captureOffLoop({ input: w1 }));
  assert.deepEqual(
    first.result.files.map((f) => f.path),
    ["a.txt"],
  );
  const again = await threadsStarted(async () => [
    await captureOffLoop({ input: w1 }),
    await captureOffLoop({ input: w2 }),
  ]);
  assert.deepEqual(
    again.result.map((cs) => cs.files.map((f) => f.path)),
    [["a.txt"], ["b.txt"]],
  );
  assert.equal(again.started, 0, "the kept thread captured both, one after the other");

  const atOnce = await threadsStarted(() =>
    Promise.all([captureOffLoop({ input: w1 }), captureOffLoop({ input: w2 })]),
  );
  assert.deepEqual(
    atOnce.result.map((cs) => cs.files.map((f) => f.path)),
    [["a.txt"], ["b.txt"]],
  );
  assert.equal(atOnce.started, 1, "the second capture at once had a thread of its own");

  const refused = await threadsStarted(() =>
    captureOffLoop({ input: { ...w1, maxPatchBytes: 1 } }).then(
      () => assert.fail("a patch over the cap was frozen"),
      (error: unknown) => error,
    ),
  );
  assert.ok(isDocketError(refused.result) && refused.result.code === "change-set-too-large", String(refused.result));
  assert.equal(refused.started, 0, "the kept thread ran it");
  const after = await threadsStarted(() => captureOffLoop({ input: w2 }));
  assert.deepEqual(
    after.result.files.map((f) => f.path),
    ["b.txt"],
  );
  assert.equal(after.started, 1, "the refused capture's thread ended; the next capture started one");

  const unsendable = { ...w1, ref: (() => "r") as unknown as string };
  await assert.rejects(captureOffLoop({ input: unsendable }), { name: "DataCloneError" });
  const next = await threadsStarted(() => captureOffLoop({ input: w1 }));
  assert.equal(next.started, 0, "a job that could not be sent left the kept thread waiting");

  // A refused capture ends its thread; readied ahead (a door does at a worker's heartbeat), the next capture waits for none.
  await captureOffLoop({ input: { ...w1, maxPatchBytes: 1 } }).catch(() => {});
  const ready = async () => {
    readyCaptureThread();
    await new Promise((r) => setImmediate(r)); // node tells of a new thread on its next turn
  };
  const readied = await threadsStarted(ready);
  assert.equal(readied.started, 1, "a thread was started ahead of the capture");
  const served = await threadsStarted(() => captureOffLoop({ input: w2 }));
  assert.equal(served.started, 0, "the readied thread served it");
  assert.equal((await threadsStarted(ready)).started, 0, "one idle thread is enough");
});
