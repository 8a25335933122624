// Claim: `spawn --best-of` resolves every candidate's policy with the one resolver before anything starts, cycles the
// models over the candidates, asks one confirmation for the whole group, and on a no records nothing at all.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isDocketError } from "../../../src/domain/errors.js";
import type { ResolvedExecution } from "../../../src/domain/workers/spawn-policy.js";
import { spawnBestOf } from "../../../src/engine/groups/spawn-group.js";
import { getGroup } from "../../../src/ledger/groups/groups.js";
import { systemAgents, type Agents } from "../../../src/substrate/agents/port.js";
import { systemGit, type Git } from "../../../src/substrate/git/port.js";
import { memoryTmux } from "../../support/memory-tmux.js";
import { workLedger } from "../../support/work-ledger.js";

function ground(t: { after(fn: () => void): void }) {
  const agents: Agents = {
    ...systemAgents,
    piCli: () => "/opt/fake-pi/cli.js",
    listModels: () => ({
      models: [
        { ref: "acme/m1", reasoning: false },
        { ref: "acme/m2", reasoning: false },
      ],
    }),
    piDefaults: () => ({ model: "acme/m1", thinking: "off" }),
  };
  const git: Git = {
    ...systemGit,
    createIsolatedWorkspace: (w) => ({ path: w.target, method: "worktree", base: "b0", baseHead: "b0", notes: [] }),
  };
  const tmux = memoryTmux();
  return { ...workLedger(t, { tmux, git, agents, env: { PATH: process.env.PATH ?? "" } }), tmux };
}

const candidates = [{ model: "acme/m1" }, { model: "acme/m2" }, { model: "acme/m1" }];

test("one confirmation for the whole group, then every candidate starts on it as one group b1", async (t) => {
  const { ctx, tmux } = ground(t);
  const asked: (readonly ResolvedExecution[])[] = [];
  const r = await spawnBestOf(ctx, {
    task: "greet the world",
    candidates,
    interactive: true,
    confirm: async (resolved) => {
      asked.push(resolved);
      return true;
    },
  });
  assert.equal(asked.length, 1, "asked once");
  assert.deepEqual(
    asked[0]!.map((x) => [x.model, x.confirm.needed]),
    [
      ["acme/m1", false],
      ["acme/m2", true],
      ["acme/m1", false],
    ],
    "every candidate resolved by the same resolver before the question",
  );
  assert.equal(r.group, "b1");
  assert.deepEqual(
    r.candidates.map((c) => [c.worker, c.execution.model]),
    [
      ["w1", "acme/m1"],
      ["w2", "acme/m2"],
      ["w3", "acme/m1"],
    ],
  );
  assert.ok(
    r.candidates[1]!.summary.some((l) => l.includes("confirmed once for the group")),
    r.candidates[1]!.summary.join("\n"),
  );
  assert.equal(tmux.launched.length, 3);
  assert.deepEqual(getGroup(ctx.db, "b1")?.workers, ["w1", "w2", "w3"]);
});

test("a no to the group's one question starts nothing and records no group and no worker", async (t) => {
  const { ctx, tmux } = ground(t);
  await assert.rejects(
    spawnBestOf(ctx, { task: "greet", candidates, interactive: true, confirm: async () => false }),
    (e) => isDocketError(e) && e.code === "spawn-cancelled",
  );
  assert.equal(tmux.launched.length, 0);
  assert.deepEqual(ctx.db.prepare("SELECT count(*) AS n FROM workers").get(), { n: 0 });
  assert.deepEqual(ctx.db.prepare("SELECT count(*) AS n FROM worker_groups").get(), { n: 0 });
});

test("a candidate whose policy is refused stops the group before anything starts", async (t) => {
  const { ctx, tmux } = ground(t);
  await assert.rejects(
    spawnBestOf(ctx, { task: "greet", candidates: [{ model: "acme/m1" }, { model: "acme/nope" }], yes: true }),
    (e) => isDocketError(e) && /acme\/nope/.test(e.message),
  );
  assert.equal(tmux.launched.length, 0);
  assert.deepEqual(ctx.db.prepare("SELECT count(*) AS n FROM workers").get(), { n: 0 });
});
