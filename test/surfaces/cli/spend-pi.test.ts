// A real pi worker whose scripted model reports known token usage: spend --json, show --json and the verdict card show
// exactly those totals at the model's prices, per version; a budget of a cent stops it, with the 80 % notification first.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatCost, formatSpend, EMPTY_TOTALS } from "../../../src/domain/workers/spend.js";
import { SCRIPTED_PRICES } from "../../../src/surfaces/pi/scripted-model.js";
import { notifyReceiver } from "../../support/notify-receiver.js";
import { cliEnv, docket } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { scriptedPi, scriptedModelFlags, centBudgetSpawn } from "../../support/scripted-pi.js";
import { waitFor } from "../../support/wait.js";

const cost = (u: { input: number; output: number; cacheRead: number; cacheWrite: number }) =>
  (u.input * SCRIPTED_PRICES.input +
    u.output * SCRIPTED_PRICES.output +
    u.cacheRead * SCRIPTED_PRICES.cacheRead +
    u.cacheWrite * SCRIPTED_PRICES.cacheWrite) /
  1e6;
const totals = (u: { input: number; output: number; cacheRead: number; cacheWrite: number }, unpriced = 0) => ({
  ...EMPTY_TOTALS,
  ...u,
  total: u.input + u.output + u.cacheRead + u.cacheWrite,
  costUsd: cost(u),
  unpriced,
});

function ground(t: { after(fn: () => void): void }) {
  const pi = scriptedPi(t);
  const repo = join(pi.root, "repo");
  mkdirSync(repo);
  gitRepo(repo, { "a.txt": "one\n" });
  const run = (...args: string[]) => docket({ env: cliEnv(pi.vars), cwd: repo }, ...args);
  return { pi, repo, run };
}

test("a pi worker's scripted usage shows exactly in spend, show and the verdict card, split by version", {
  timeout: 180_000,
}, async (t) => {
  const { pi, run } = ground(t);
  const first = { input: 1000, output: 200, cacheRead: 500, cacheWrite: 100 };
  const second = { input: 300, output: 50, cacheRead: 0, cacheWrite: 0 };
  const script = pi.script("spend.json", [
    {
      text: "Done reading.",
      usage: first,
      toolCall: {
        name: "docket_done",
        id: "d-1",
        arguments: { outcome: "findings", summary: "read it", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "Published.", usage: second },
  ]);
  const spawned = run("spawn", "--as", "scout", ...scriptedModelFlags(script), "--yes", "--json", "read a.txt");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  const both = { input: 1300, output: 250, cacheRead: 500, cacheWrite: 100 };
  const spend = await waitFor(
    "both calls counted",
    () => {
      const r = run("spend", "--json").json;
      return r?.total.output === 250 ? r : undefined;
    },
    90_000,
    500,
  );
  assert.deepEqual(spend.rows, [{ key: "w1", ...totals(both), cost: formatCost(totals(both)) }]);
  const show = run("show", "w1", "--json").json;
  assert.deepEqual(show.spend, totals(both));
  assert.deepEqual(show.spendDetail.versions, [
    { version: 1, totals: totals(first) },
    { version: 2, totals: totals(second) },
  ]);
  assert.deepEqual(show.spendDetail.generations, [{ generation: 1, totals: totals(both) }]);
  assert.deepEqual(run("verdict", "w1", "--json").json.spend, { version: totals(first), worker: totals(both) });
  assert.match(
    run("verdict", "w1").stdout,
    new RegExp(
      `this version: ${formatSpend(totals(first)).replace(/[.$]/g, "\\$&")}; worker so far: ${formatCost(totals(both)).replace(/[.$]/g, "\\$&")}`,
    ),
  );
  const ls = run("ls").stdout;
  assert.match(ls, new RegExp(`^w1 .* ${formatCost(totals(both)).replace(/[.$]/g, "\\$&")} `, "m"));
  const again = run("spend", "--json").json;
  assert.deepEqual(again.total, spend.total, "a repeat read adds nothing: the offsets were remembered");
});

test("a budget of a cent warns at 80 % and stops the worker at 100 %; its version stays reviewable and respawn needs a new budget", {
  timeout: 180_000,
}, async (t) => {
  const { pi, run } = ground(t);
  const received = notifyReceiver(pi.vars.DOCKET_HOME!, pi.root);
  const spawned = run(...centBudgetSpawn(pi, { text: "Still going." }));
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  await waitFor("the 80 % threshold", () => run("show", "w1", "--json").json?.budget.warnedAt, 90_000, 500);
  const stopped = await waitFor(
    "the stop at 100 %",
    () => {
      const s = run("show", "w1", "--json").json;
      return s?.budget.stoppedAt ? s : undefined;
    },
    90_000,
    500,
  );
  assert.equal(stopped.budget.usd, 0.01);
  assert.match(stopped.lastError, /^stopped by Docket: spent \$0\.01 of its \$0\.01 budget/);
  assert.equal(stopped.deliverable, "worker-deliverable:w1:1");
  assert.equal(run("verdict", "w1", "--json").json.deliverable.version, 1, "the frozen version stays reviewable");
  run("attention", "--json"); // a sending process: what is due goes out
  const events = (
    await waitFor(
      "two budget events",
      () => {
        const lines = (existsSync(received) ? readFileSync(received, "utf8") : "")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l: string) => JSON.parse(l));
        return lines.filter((e: { event: string }) => e.event === "budget").length >= 2 ? lines : undefined;
      },
      30_000,
      300,
    )
  ).filter((e: { event: string }) => e.event === "budget");
  assert.match(events[0].text, /\(80 % reached\)$/);
  assert.match(events[1].text, /^stopped by Docket/);
  const refused = run("respawn", "w1", "--json");
  assert.equal(refused.code, 1);
  assert.equal(refused.json.error.code, "budget-reached");
  const unmeasurable = run("spawn", "--agent", "command", "--cmd", "true", "--budget", "1", "--yes", "--json", "x");
  assert.equal(unmeasurable.json.error.code, "budget-unmeasurable");
});
