// A worker process killed between claiming its frozen version and committing it leaves an orphan that a retry adopts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { done } from "../../../src/engine/protocol/protocol.js";
import { deliverablePath, listDeliverableVersions } from "../../../src/files/workers/deliverables.js";
import { ledgerAt } from "../../support/ledger.js";
import { workLedger } from "../../support/work-ledger.js";
import { isolatedWorker } from "../../support/protocol-worker.js";
import { teardown } from "../../support/teardown.js";
import { waitFor } from "../../support/wait.js";

const CHILD = fileURLToPath(new URL("../../support/done-child.js", import.meta.url));

test("a done killed after its sidecar was claimed but before its command committed is finished by retrying the same call", async (t) => {
  const { ctx, home } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  writeFileSync(join(w.workspace, "src/app.txt"), "changed\n");
  // Hold the ledger's write lock so the child's command blocks after the claim; then kill it there.
  const child = spawn(process.execPath, [CHILD, w.worker, "1", w.runToken, "call-crash"], {
    env: { ...process.env, DOCKET_HOME: home },
    cwd: w.workspace,
    stdio: ["pipe", "pipe", "inherit"],
  });
  teardown(t).child(child);
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  const blocker = ledgerAt(home);
  t.after(() => blocker.close());
  blocker.exec("BEGIN IMMEDIATE");
  child.stdin!.write("go\n");
  const sidecar = deliverablePath(ctx.home, w.worker, 1);
  await waitFor(
    "the child to claim v1",
    () => {
      if (child.exitCode !== null) throw new Error(`the child exited (${child.exitCode}) before claiming v1`);
      return existsSync(sidecar);
    },
    60_000,
    10,
  );
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  blocker.exec("ROLLBACK");
  const bytes = readFileSync(sidecar);
  const before = ctx.db.prepare("SELECT state, deliverable_version FROM workers WHERE id = ?").get(w.worker);
  assert.deepEqual(
    { ...(before as object) },
    { state: "active", deliverable_version: null },
    "nothing points at the orphan yet",
  );

  const r = done(
    ctx,
    { worker: w.worker, generation: 1, runToken: w.runToken },
    { callId: "call-crash", body: "child body", outcome: "completed", summary: "from the child" },
  );
  assert.equal(r.deliverable.version, 1);
  assert.deepEqual(readFileSync(sidecar), bytes, "the orphan is adopted as claimed, never rewritten");
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), [1]);
  const after = ctx.db.prepare("SELECT state, deliverable_version, summary FROM workers WHERE id = ?").get(w.worker);
  assert.deepEqual({ ...(after as object) }, { state: "ready", deliverable_version: 1, summary: "from the child" });
  assert.equal(
    done(
      ctx,
      { worker: w.worker, generation: 1, runToken: w.runToken },
      { callId: "call-next", body: "b", outcome: "completed", summary: "s" },
    ).deliverable.version,
    2,
  );
});
