// The engine reaches tmux, git and the agents only through the context's ports: with in-memory ones, spawn and respawn
// run whole, a dead pane is captured once and its window closed, and delete's and prune's rules hold.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deleteWorker, pruneWorkers } from "../../../src/engine/workers/delete.js";
import { respawnWorker } from "../../../src/engine/workers/respawn.js";
import { spawnWorker } from "../../../src/engine/workers/spawn.js";
import { listLaunches } from "../../../src/ledger/workers/launches.js";
import { tempDir } from "../../support/temp.js";
import { harvestFinished } from "../../../src/engine/workers/harvest.js";
import { workersOf } from "../../../src/ledger/workers/fleet-reads.js";
import { getWorker, updateWorker } from "../../../src/ledger/workers/workers.js";
import { isDocketError } from "../../../src/domain/errors.js";
import { systemGit, type Git } from "../../../src/substrate/git/port.js";
import { systemAgents, type Agents } from "../../../src/substrate/agents/port.js";
import { memoryTmux } from "../../support/memory-tmux.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";

test("harvest captures a finished worker's dead pane once, closes its window, and leaves a live pane alone", (t) => {
  const tmux = memoryTmux({
    "%1": { window: "@1", windowName: "w1", state: "dead", text: "building   \n\n\n\nall 3 tests pass\n\n" },
    "%2": { window: "@2", windowName: "w2", state: "alive", text: "still typing" },
  });
  const { ctx } = workLedger(t, { tmux });
  for (const n of [1, 2]) {
    const { worker } = addWorker(ctx);
    ctx.commands.run("test.exited", { worker }, (tx) =>
      updateWorker(tx, worker, { state: "ended", exited: true, paneId: `%${n}`, windowId: `@${n}` }),
    );
  }
  assert.equal(harvestFinished(ctx, workersOf(ctx.db), ctx.tmux.listPanes()), 1);
  assert.equal(readFileSync(join(ctx.home.workerDir("w1"), "pane-tail.txt"), "utf8"), "building\n\nall 3 tests pass\n");
  assert.deepEqual([tmux.captured, tmux.killed], [["%1"], ["@1"]]);
  assert.notEqual(getWorker(ctx.db, "w1")!.paneCapturedAt, null);
  assert.equal(getWorker(ctx.db, "w2")!.paneCapturedAt, null, "a live pane may still be talked to");
  assert.equal(
    harvestFinished(ctx, workersOf(ctx.db), ctx.tmux.listPanes()),
    0,
    "a captured pane is not captured again",
  );
  assert.deepEqual(tmux.captured, ["%1"]);
});

test("delete closes the worker's own window on the context's server and touches no other", async (t) => {
  const tmux = memoryTmux({
    "%5": { window: "@5", windowName: "w1", state: "alive", text: "" },
    "%6": { window: "@6", windowName: "w2", state: "alive", text: "" },
  });
  const { ctx } = workLedger(t, { tmux });
  for (const n of [5, 6]) {
    const { worker } = addWorker(ctx);
    ctx.commands.run("test.window", { worker }, (tx) =>
      updateWorker(tx, worker, { state: "active", paneId: `%${n}`, windowId: `@${n}` }),
    );
  }
  const r = await deleteWorker(ctx, { worker: "w1", yes: true });
  assert.deepEqual([r.deleted, r.workspaceRemoved], [true, false]);
  assert.deepEqual(tmux.killed, ["@5"]);
  assert.deepEqual([...tmux.panes.keys()], ["%6"]);
  assert.equal(getWorker(ctx.db, "w1"), undefined);
  assert.equal(getWorker(ctx.db, "w2")!.windowId, "@6");
});

test("delete refuses a worker whose workspace has unpromoted changes, and with --force removes that workspace through ctx.git", async (t) => {
  const removed: string[] = [];
  const git: Git = {
    ...systemGit,
    liveChangesExist: () => true,
    removeWorkspace: (w) => void removed.push(`${w.method} ${w.path}`),
  };
  const { ctx } = workLedger(t, { tmux: memoryTmux(), git });
  const { worker } = addWorker(ctx);
  ctx.commands.run("test.isolated", { worker }, (tx) =>
    updateWorker(tx, worker, { workspaceMode: "isolated", workspace: "/ws/w1", base: "b0", baseHead: "b0" }),
  );
  await assert.rejects(
    deleteWorker(ctx, { worker, yes: true }),
    (e) => isDocketError(e) && e.code === "unpromoted-changes",
  );
  assert.deepEqual(removed, []);
  assert.notEqual(getWorker(ctx.db, worker), undefined, "a refused delete changes nothing");
  const r = await deleteWorker(ctx, { worker, yes: true, force: true });
  assert.deepEqual([r.workspaceRemoved, removed], [true, ["worktree /ws/w1"]]);
  assert.equal(getWorker(ctx.db, worker), undefined);
});

test("spawn and respawn run whole on in-memory ports: a workspace from ctx.git, a window from ctx.tmux, the next generation in a new one", async (t) => {
  const made: string[] = [];
  const git: Git = {
    ...systemGit,
    createIsolatedWorkspace: (w) => {
      made.push(w.target);
      return { path: w.target, method: "worktree", base: "b0", baseHead: "b0", notes: [] };
    },
  };
  const tmux = memoryTmux();
  const { ctx } = workLedger(t, { tmux, git, env: { PI_CODING_AGENT_DIR: tempDir(t), PATH: process.env.PATH ?? "" } });
  const spawned = await spawnWorker(ctx, {
    task: "count the files",
    agent: "command",
    command: "ls | wc -l",
    yes: true,
  });
  const w = getWorker(ctx.db, spawned.worker)!;
  assert.deepEqual(made, [w.workspace]);
  assert.deepEqual([w.state, w.base, w.windowId, w.paneId], ["active", "b0", "@100", "%100"]);
  assert.equal(tmux.panes.get("%100")!.windowName, spawned.worker);
  tmux.panes.get("%100")!.state = "dead";
  ctx.commands.run("test.exited", {}, (tx) => updateWorker(tx, spawned.worker, { exited: true, exitCode: 0 }));
  const again = respawnWorker(ctx, spawned.worker);
  assert.equal(again.generation, 2);
  assert.deepEqual(
    [...new Set(tmux.killed)],
    ["@100"],
    "only the dead generation's window goes, after its tail is kept",
  );
  assert.deepEqual(tmux.captured, ["%100"]);
  const now = getWorker(ctx.db, spawned.worker)!;
  assert.deepEqual([now.generation, now.windowId, now.exited], [2, "@101", false]);
  assert.deepEqual(
    listLaunches(ctx.db, spawned.worker).map((l) => l.generation),
    [1, 2],
  );
});

test("a pi worker is spawned from the launcher port: its model list, its defaults and its CLI, nothing asked of the machine", async (t) => {
  const asked: string[] = [];
  const agents: Agents = {
    ...systemAgents,
    piCli: () => "/opt/fake-pi/cli.js",
    listModels: (args) => {
      asked.push(`models ${args.join(" ")}`);
      return { models: [{ ref: "acme/m1", reasoning: false }] };
    },
    piDefaults: () => {
      asked.push("defaults");
      return { model: "acme/m1", thinking: "off" };
    },
  };
  const tmux = memoryTmux();
  const git: Git = {
    ...systemGit,
    createIsolatedWorkspace: (w) => ({ path: w.target, method: "worktree", base: "b0", baseHead: "b0", notes: [] }),
  };
  const { ctx } = workLedger(t, { tmux, git, agents, env: { PATH: process.env.PATH ?? "" } });
  const spawned = await spawnWorker(ctx, { task: "plan the greeter", yes: true });
  assert.deepEqual(asked, ["models ", "defaults"]);
  assert.equal(spawned.execution.model, "acme/m1");
  const argv = tmux.launched[0]!.argv;
  assert.ok(argv.includes("/opt/fake-pi/cli.js"), `the window runs the port's pi CLI: ${argv.join(" ")}`);
  assert.deepEqual(argv.slice(argv.indexOf("--model"), argv.indexOf("--model") + 2), ["--model", "acme/m1"]);
});

test("prune retires, through the ports, only workers settled longer than pruneAfterHours, and keeps one with unpromoted changes", (t) => {
  const dirty = new Set(["/ws/w3"]);
  const removed: string[] = [];
  const git: Git = {
    ...systemGit,
    liveChangesExist: (tree) => dirty.has(tree.workspace),
    removeWorkspace: (w) => void removed.push(w.path),
  };
  const tmux = memoryTmux({ "%1": { window: "@1", windowName: "w1", state: "dead", text: "done\n" } });
  const { ctx, clock } = workLedger(t, { tmux, git });
  const settle = (worker: string, patch: Parameters<typeof updateWorker>[2]) =>
    ctx.commands.run("test.settle", { worker }, (tx) => updateWorker(tx, worker, patch));
  for (const n of [1, 2, 3]) {
    const { worker } = addWorker(ctx);
    settle(worker, {
      state: "ended",
      exited: true,
      workspaceMode: "isolated",
      workspace: `/ws/${worker}`,
      base: "b0",
      baseHead: "b0",
      ...(n === 1 ? { paneId: "%1", windowId: "@1" } : {}),
    });
  }
  settle("w1", { settledAt: "2025-12-30T00:00:00.000Z" });
  settle("w2", { settledAt: "2025-12-31T23:00:00.000Z" });
  settle("w3", { settledAt: "2025-12-30T00:00:00.000Z" });
  clock.set("2026-01-01T00:00:00.000Z");
  const r = pruneWorkers(ctx);
  assert.deepEqual(r.pruned, ["w1"]);
  assert.deepEqual(
    r.skipped.map((s) => s.worker),
    ["w3"],
  );
  assert.deepEqual([removed, [...new Set(tmux.killed)], tmux.captured], [["/ws/w1"], ["@1"], ["%1"]]);
  assert.deepEqual(
    workersOf(ctx.db).map((w) => w.id),
    ["w2", "w3"],
  );
});
