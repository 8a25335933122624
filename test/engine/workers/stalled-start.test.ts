// Starts that never finish: a real `docket spawn` killed part-way leaves a row starting without a window;
// reads reconcile it as failed once its spawner is gone, the fleet cap never counts it, and a late launch is refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineContext } from "../../../src/engine/context.js";
import { openEngine } from "../../../src/engine/open.js";
import { countLiveWorkers, takePaneSnapshot } from "../../../src/engine/workers/fleet.js";
import { reconcileStalledStarts } from "../../../src/engine/workers/harvest.js";
import { launchInto } from "../../../src/engine/workers/spawn.js";
import type { LaunchExecution } from "../../../src/domain/workers/execution.js";
import { listWorkers, showWorker } from "../../../src/engine/workers/view.js";
import { listPendingNotifications } from "../../../src/ledger/talk/notifications.js";
import { workersOf } from "../../../src/ledger/workers/fleet-reads.js";
import { getWorker, insertWorker } from "../../../src/ledger/workers/workers.js";
import { cliGround } from "../../support/cli-workers.js";
import { docket, DOCKET_BIN } from "../../support/docket-cli.js";
import type { TmuxServer } from "../../support/tmux.js";
import { waitFor } from "../../support/wait.js";
import { testClock } from "../../support/work-ledger.js";

const LOCKS = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "src",
  "engine",
  "workers",
  "locks.js",
);
const OPENER = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "src", "engine", "open.js");

interface Ground {
  repo: string;
  env: NodeJS.ProcessEnv;
  server: TmuxServer;
  /** An engine on the same home whose clock stands `aheadMs` after the real one. */
  engineAt(aheadMs: number): EngineContext;
}

function ground(t: { after(fn: () => void): void }, config: Record<string, unknown> = {}): Ground {
  const { repo, env, server } = cliGround(t, { config });
  return {
    repo,
    env,
    server,
    engineAt(aheadMs) {
      const clock = testClock(new Date(Date.now() + aheadMs).toISOString());
      const ctx = openEngine({ env, cwd: repo, clock });
      t.after(() => ctx.close());
      return ctx;
    },
  };
}

/** Another process holding the repository's worktree lock until it is killed; resolves once it holds it. */
async function holdWorktreeLock(g: Ground): Promise<ChildProcess> {
  const program = `
    const { openEngine } = await import(${JSON.stringify(OPENER)});
    const { worktreeLock } = await import(${JSON.stringify(LOCKS)});
    const ctx = openEngine({ env: process.env, cwd: ${JSON.stringify(g.repo)} });
    worktreeLock(ctx, ${JSON.stringify(g.repo)})(() => {
      process.stdout.write("held\\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
    });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", program], {
    env: g.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  await waitFor("the other process to hold the worktree lock", () => out.includes("held"));
  return child;
}

test("a spawn killed part-way is reconciled as failed once its spawner is gone, and the cap never counts it", {
  timeout: 90_000,
}, async (t) => {
  const g = ground(t, { maxActive: 1 });
  const holder = await holdWorktreeLock(g);
  t.after(() => holder.kill("SIGKILL"));
  const spawner = spawn(
    process.execPath,
    [DOCKET_BIN, "spawn", "--agent", "command", "--cmd", "sleep 600", "--json", "doomed"],
    { cwd: g.repo, env: g.env, stdio: "ignore" },
  );
  const now = g.engineAt(0);
  await waitFor("the spawn to record its worker", () => getWorker(now.db, "w1"));
  spawner.kill("SIGKILL"); // it waits for the worktree lock: killed after its row, before its window
  await new Promise((r) => spawner.on("exit", r));
  holder.kill("SIGKILL"); // its lock file stays behind, owned by a dead process
  await new Promise((r) => holder.on("exit", r));

  const row = getWorker(now.db, "w1")!;
  assert.deepEqual([row.state, row.windowId, row.pid], ["starting", null, spawner.pid]);
  const panes = takePaneSnapshot(now.tmux, now.clock.now());
  assert.equal(countLiveWorkers(now.db, panes, now.clock.nowMs()), 1, "within the grace it may still be starting");
  assert.equal(listWorkers(now).workers[0]!.state, "starting", "and a read leaves it alone");

  const later = g.engineAt(20_000);
  assert.equal(
    countLiveWorkers(later.db, panes, later.clock.nowMs()),
    0,
    "past the grace, with its spawner gone, it holds no place",
  );
  assert.equal(listWorkers(later).workers[0]!.state, "failed");
  const detail = showWorker(later, "w1");
  assert.match(
    detail.lastError!,
    /^the start of w1 never finished: no window (19|2\d) s after it began, and the process starting it is gone$/,
  );
  assert.equal(detail.liveness, "gone");
  assert.deepEqual(
    listPendingNotifications(later.db).map((n) => [n.kind, n.worker]),
    [["failed", "w1"]],
  );

  const next = docket(
    { env: g.env, cwd: g.repo },
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "sleep 600",
    "--json",
    "after the phantom",
  );
  assert.equal(next.code, 0, next.stdout + next.stderr);
  assert.equal(next.json.worker, "w2", "the dead holder's worktree lock was taken over and the cap had room");
});

test("a launch whose start was given up meanwhile is refused and its window closed, so nothing runs unrecorded", (t) => {
  const g = ground(t);
  const ctx = g.engineAt(0);
  const execution = { agent: "command", command: "sleep 600", subdir: "" } as unknown as LaunchExecution;
  const worker = ctx.commands.run("test.worker", {}, (tx) =>
    insertWorker(tx, {
      task: "slow start",
      kind: "default",
      agent: "command",
      command: "sleep 600",
      execution,
      cwd: g.repo,
      projectRoot: g.repo,
      workspace: () => g.repo,
      workspaceMode: "shared",
      runToken: "token-1",
      spawnerPid: process.pid,
    }),
  ).result;
  const later = g.engineAt(11 * 60_000);
  assert.equal(reconcileStalledStarts(ctx, workersOf(ctx.db)), 0, "its spawner still runs: a slow start is left alone");
  assert.equal(reconcileStalledStarts(later, workersOf(later.db)), 1, "but not for ever");
  assert.match(
    getWorker(ctx.db, worker)!.lastError!,
    /^the start of w1 never finished: no window 6\d\d s after it began$/,
  );

  assert.throws(
    () => launchInto(ctx, getWorker(ctx.db, worker)!, execution, { generation: 1, runToken: "token-1", env: {} }),
    (e: { code?: string; message?: string }) =>
      e.code === "launch-abandoned" &&
      /^w1 generation 1 was given up while it started \(the start of w1 never finished/.test(e.message ?? ""),
  );
  let names = "";
  try {
    names = g.server.tmux("list-windows", "-a", "-F", "#{window_name}");
  } catch {
    names = ""; // the server exited with its last window
  }
  assert.doesNotMatch(names, /^w1$/m, "the window it opened was closed");
  assert.equal(getWorker(ctx.db, worker)!.windowId, null);
});
