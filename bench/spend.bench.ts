// Benchmark: spend for 50 pi workers with large session files (20 MB each by default) in `ls` and `verdict`, beside
// `ls` before any record exists, in the same run: first read (everything), repeat (nothing appended), after one line each;
// and one budget round of a long-lived process's timer (the door's, every second) over them, in process.
//
// DOCKET_BENCH_SPEND_WORKERS (default 50) and DOCKET_BENCH_SPEND_MB (default 20) size it. Never asserts; prints figures.

import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, openSync, closeSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { checkRunningBudgets } from "../src/engine/workers/budget.js";
import { insertWorker } from "../src/ledger/workers/workers.js";
import { figure } from "./support/figure.js";
import { openEngine } from "../src/engine/open.js";
import { recordGround } from "./support/record-ground.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const WORKERS = Number(process.env.DOCKET_BENCH_SPEND_WORKERS ?? 50);
const MB = Number(process.env.DOCKET_BENCH_SPEND_MB ?? 20);
const REPEATS = 5;

const ground = recordGround("spend");
try {
  const { home, repo, env, ctx } = ground;
  const ids: string[] = [];
  for (let i = 0; i < WORKERS; i++) {
    ids.push(
      ctx.commands.run("bench.worker", { i }, (tx) => {
        const id = insertWorker(tx, {
          task: `worker ${i}`,
          kind: "scout",
          agent: "pi",
          execution: {},
          cwd: repo,
          projectRoot: repo,
          workspace: () => repo,
          workspaceMode: "shared",
          runToken: `t${i}`,
        });
        tx.db.prepare("UPDATE workers SET state = 'active' WHERE id = ?").run(id);
        return id;
      }).result,
    );
  }
  ctx.close();

  const took: Record<string, number> = {};
  // A read that changes nothing runs `runs` times (the median is kept); the first read of the files can run only once.
  const time = (label: string, args: string[], runs = 1) => {
    const times: number[] = [];
    let out = "";
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: repo, env, encoding: "utf8" });
      times.push(performance.now() - t0);
      if (r.status !== 0) console.log(`  ${label}: exit ${r.status}: ${r.stderr.trim().slice(0, 300)}`);
      out = r.stdout;
    }
    const ms = [...times].sort((a, b) => a - b)[Math.floor(runs / 2)]!;
    took[label] = ms;
    console.log(`  ${label.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms${runs > 1 ? ` (median of ${runs})` : ""}`);
    return out;
  };

  console.log(`${WORKERS} pi workers, session files of ${MB} MB each (${WORKERS * MB} MB in all)`);
  time("ls, no records yet (spend: nothing to read)", ["ls", "--json"]);
  time("ls again, no records", ["ls", "--json"], REPEATS);

  const line = (n: number) =>
    `${JSON.stringify({ type: "message", id: `e${n}`, parentId: null, timestamp: "2026-12-01T10:00:00.000Z", message: { role: "assistant", provider: "anthropic", model: "claude-sonnet-4-5", content: [{ type: "text", text: "x".repeat(700) }], usage: { input: 1000, output: 100, cacheRead: 50, cacheWrite: 10, totalTokens: 1160, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 0 } })}\n`;
  const block = Array.from({ length: 1000 }, (_, n) => line(n)).join("");
  const t0 = performance.now();
  for (const id of ids) {
    const dir = join(home, "fleet", id, "session");
    mkdirSync(dir, { recursive: true });
    const fd = openSync(join(dir, "s.jsonl"), "w");
    for (let written = 0; written < MB * 1024 * 1024; written += block.length) writeSync(fd, block);
    closeSync(fd);
  }
  console.log(`  (wrote the session files in ${(performance.now() - t0).toFixed(0)} ms)`);
  time("ls, first read (every file from the start)", ["ls", "--json"]);
  time("ls, repeat (nothing appended)", ["ls", "--json"], REPEATS);
  time("verdict queue, repeat", ["verdict", "--json"], REPEATS);
  for (const id of ids) appendFileSync(join(home, "fleet", id, "session", "s.jsonl"), line(1));
  time("ls after one appended line per worker", ["ls", "--json"]);
  const spend = JSON.parse(time("spend --json", ["spend", "--json"]));
  console.log(`  total tokens counted: ${spend.total.total} · cost ${spend.total.cost}`);
  const size = `${WORKERS} pi workers × ${MB} MB session files`;
  const empty = {
    label: `\`ls --json\` before any record exists (median of ${REPEATS})`,
    value: took["ls again, no records"]!,
  };
  for (const [id, label, what] of [
    [
      "spend-ls-first",
      "ls, first read (every file from the start)",
      "`ls --json`, first read of every session file (one run)",
    ],
    ["spend-ls-repeat", "ls, repeat (nothing appended)", `\`ls --json\` again, nothing appended, median of ${REPEATS}`],
    [
      "spend-ls-appended",
      "ls after one appended line per worker",
      "`ls --json` after one appended line per worker (one run)",
    ],
    ["spend-verdict", "verdict queue, repeat", `\`verdict --json\`, nothing appended, median of ${REPEATS}`],
    ["spend-spend", "spend --json", "`spend --json` (one run)"],
  ] as const)
    figure({ id, label: `${what}, ${size}`, value: took[label]!, unit: "ms", baseline: empty });

  // The timer's round: nothing budgeted (one indexed query), then every worker budgeted far above its spend.
  const round = openEngine({ env, cwd: repo });
  const rounds = (label: string): number => {
    const n = 20;
    const t1 = performance.now();
    for (let i = 0; i < n; i++) checkRunningBudgets(round);
    const mean = (performance.now() - t1) / n;
    console.log(`  ${label.padEnd(44)} ${mean.toFixed(2).padStart(7)} ms`);
    return mean;
  };
  const unbudgeted = {
    label: "a round with no worker budgeted",
    value: rounds("budget round, no worker has a budget"),
  };
  round.db.prepare("UPDATE workers SET budget_usd = 1000000").run();
  const quiet = rounds(`budget round, ${WORKERS} budgeted, nothing appended`);
  for (const id of ids) appendFileSync(join(home, "fleet", id, "session", "s.jsonl"), line(2));
  const t2 = performance.now();
  checkRunningBudgets(round);
  const appended = performance.now() - t2;
  console.log(`  ${"budget round after one line per worker".padEnd(44)} ${appended.toFixed(2).padStart(7)} ms`);
  figure({
    id: "budget-round-quiet",
    label: `one budget round of the door's timer, ${WORKERS} budgeted workers, nothing appended (mean of 20, in process)`,
    value: quiet,
    unit: "ms",
    baseline: unbudgeted,
  });
  figure({
    id: "budget-round-appended",
    label: `one budget round after one appended line per worker, ${size} (one round, in process)`,
    value: appended,
    unit: "ms",
    baseline: unbudgeted,
  });
  round.close();
} finally {
  ground.remove();
}
