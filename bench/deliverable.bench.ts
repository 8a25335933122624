// Benchmark: docket_done → ready on a 2,000-file repository with 20 files changed, printed beside
// `git add -A && git diff --cached --binary <base>` and the human-side patch check alone in the same run;
// then write+read of a 5 MB body + 5 MB patch.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openEngine } from "../src/engine/open.js";
import { done } from "../src/engine/protocol/protocol.js";
import { claimDeliverable, readDeliverable } from "../src/files/workers/deliverables.js";
import { insertWorker, updateWorker } from "../src/ledger/workers/workers.js";
import type { WorkerDeliverable } from "../src/domain/deliverables/deliverable.js";
import { checkFrozenPatch } from "../src/substrate/git/patch-check.js";
import { withObjectGit } from "../src/substrate/git/worker-git.js";
import { createIsolatedWorkspace } from "../src/substrate/git/worktree.js";
import { figure } from "./support/figure.js";
import { benchWorkerRow, FILES, git, makeBigRepository } from "./support/big-repo.js";

const CHANGED = 20;
const RUNS = 9;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const root = mkdtempSync(join(tmpdir(), "docket-bench-deliverable-"));
try {
  const project = join(root, "project");
  const head = makeBigRepository(project);

  const ctx = openEngine({ env: { DOCKET_HOME: join(root, "home") }, cwd: project });
  const worker = ctx.commands.run("bench.worker", {}, (tx) =>
    insertWorker(tx, benchWorkerRow(project, join(root, "home"))),
  ).result;
  const ws = join(root, "home", "workers", worker, "workspace");
  // As spawn makes it: admin directory docket-<worker> (worker-git derives it from the project), folder `workspace`,
  // a baseline commit as the worker's base.
  const base = createIsolatedWorkspace({ root: project, target: ws, adminName: `docket-${worker}` }).base;
  ctx.commands.run("bench.base", {}, (tx) => updateWorker(tx, worker, { base, baseHead: head, state: "active" }));
  const plain = join(root, "plain");
  git(project, "worktree", "add", "-q", "--detach", plain, base);

  const edit = (dir: string, run: number) => {
    for (let c = 0; c < CHANGED; c++) {
      const i = c * 97 + 3;
      writeFileSync(
        join(dir, "src", `d${i % 40}`, `f${i}.ts`),
        `// edited in run ${run}\n` +
          Array.from({ length: 30 }, (_, l) => `export const v${l} = ${i * 100 + l + run};`).join("\n") +
          "\n",
      );
    }
  };
  const who = { worker, generation: 1, runToken: "tok" };
  const ours: number[] = [];
  const theirs: number[] = [];
  const checks: number[] = [];
  const alone: number[] = [];
  let first = 0;
  for (let run = 0; run <= RUNS; run++) {
    edit(ws, run);
    edit(plain, run);
    let t0 = performance.now();
    git(plain, "add", "-A");
    const patch = git(plain, "diff", "--cached", "--binary", base);
    const bare = performance.now() - t0;
    t0 = performance.now();
    const r = done(ctx, who, {
      callId: `call-${run}`,
      body: `run ${run}`,
      outcome: "completed",
      summary: `run ${run}`,
    });
    const full = performance.now() - t0;
    if (run === 0) {
      first = full;
      const read = readDeliverable(ctx.home, worker, r.deliverable.version);
      if (
        !read.ok ||
        read.deliverable.changeSet!.files.length !== CHANGED ||
        read.deliverable.changeSet!.patch !== patch
      )
        throw new Error("bench sanity: the frozen patch differs from git's");
      continue; // warm-up
    }
    ours.push(full);
    theirs.push(bare);
    // As done runs it: the base's index kept in the worktree's admin directory after the first capture, and (since the
    // check shares the capture's private git dir) inside an already open one; alone, it would set up its own.
    const input = {
      objects: join(project, ".git", "objects"),
      base,
      patch,
      baseIndex: join(project, ".git", "worktrees", `docket-${worker}`, `docket-base-${base}.index`),
    };
    const checked = withObjectGit(input.objects, base, (g) => {
      t0 = performance.now();
      const c = checkFrozenPatch(input, g);
      checks.push(performance.now() - t0);
      return c;
    });
    t0 = performance.now();
    checkFrozenPatch(input);
    alone.push(performance.now() - t0);
    if (!checked.ok || checked.files.length !== CHANGED)
      throw new Error("bench sanity: the patch check refused an honest patch");
  }
  console.log(
    `machine: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`repo: ${FILES} files, ${CHANGED} changed per run, ${RUNS} runs (medians), versions grow 1→${RUNS + 1}`);
  console.log(`git add -A && git diff --cached --binary : ${median(theirs).toFixed(1)} ms`);
  console.log(
    `docket done → ready (capture+check+claim+cmd) : ${median(ours).toFixed(1)} ms  (${(median(ours) / median(theirs)).toFixed(2)}× the bare git pair; aim ≤ 1.5×)`,
  );
  console.log(
    `the worker's first done (its stat cache seeded from the worktree's index; one sample) : ${first.toFixed(1)} ms`,
  );
  figure({
    id: "publish",
    label: `publish a deliverable with its frozen patch (${FILES.toLocaleString("en-US")}-file repo, ${CHANGED} changed), median`,
    value: median(ours),
    unit: "ms",
    baseline: { label: "`git add -A && git diff --cached --binary`", value: median(theirs) },
  });
  const before = median(ours) - median(checks);
  console.log(
    `the human-side patch check as done runs it (one git apply --check --numstat --summary -z in the capture's private git dir) : ${median(checks).toFixed(1)} ms; with a private git dir of its own (as before): ${median(alone).toFixed(1)} ms`,
  );
  console.log(
    `done without that check (today's path, by subtraction) : ${before.toFixed(1)} ms  → with it ${(median(ours) / before).toFixed(2)}× (aim ≤ 1.3×)`,
  );

  const big = `${"x".repeat(64)}\n`;
  const body = big.repeat(Math.ceil((5 * 1024 * 1024) / big.length)).slice(0, 5 * 1024 * 1024);
  const patchText = `diff --git a/big b/big\n${"+".concat("y".repeat(99), "\n").repeat((5 * 1024 * 1024) / 101)}`;
  const writes: number[] = [];
  const reads: number[] = [];
  for (let i = 0; i < 7; i++) {
    const d: WorkerDeliverable = {
      schemaVersion: 1,
      id: `worker-deliverable:${worker}`,
      version: 1000 + i,
      ref: `worker-deliverable:${worker}:${1000 + i}`,
      createdAt: new Date().toISOString(),
      toolCallId: `big-${i}`,
      source: { workerId: worker, task: "bench", kind: "general", generation: 1 },
      outcome: "completed",
      summary: "big",
      body,
      evidence: [],
      recommendations: [],
      items: [],
      changeSet: {
        ref: `worker-changes:${worker}:${1000 + i}`,
        base,
        files: [{ path: "big", additions: 1, deletions: 0 }],
        stat: "",
        hunks: 1,
        patch: patchText,
      },
    };
    let t0 = performance.now();
    if (!claimDeliverable(ctx.home, worker, 1000 + i, d)) throw new Error("claim failed");
    writes.push(performance.now() - t0);
    t0 = performance.now();
    const read = readDeliverable(ctx.home, worker, 1000 + i);
    reads.push(performance.now() - t0);
    if (!read.ok || read.deliverable.body.length !== body.length) throw new Error("bench sanity: big read failed");
  }
  console.log(
    `5 MB body + 5 MB patch sidecar: claim (write+fsync+link) ${median(writes).toFixed(1)} ms, validated read ${median(reads).toFixed(1)} ms (medians of 7)`,
  );
  ctx.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
