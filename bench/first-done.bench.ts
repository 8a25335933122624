// Benchmark: a worker's first done on a 2,000-file repository with 20 files changed — each round a fresh worker,
// made as spawn makes it — the door's way (off its loop) and direct on the engine, beside a build from before
// (DOCKET_BENCH_DIST_BEFORE=<another checkout's dist>) in the same rounds. Prints figures; never asserts.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { figure } from "./support/figure.js";
import { benchWorkerRow, FILES, makeBigRepository } from "./support/big-repo.js";

const CHANGED = 20;
const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 7);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One build's modules, loaded from its dist/ (the door's way is plain `done` in a build that had no off-loop path). */
async function buildAt(dist: string, root: string, label: string) {
  const load = (m: string) => import(pathToFileURL(join(dist, "src", m)).href);
  const { openEngine } = await load("engine/open.js");
  const { done } = await load("engine/protocol/protocol.js");
  const offLoop = await load("engine/protocol/done-off-loop.js").catch(() => undefined);
  const { insertWorker, updateWorker } = await load("ledger/workers/workers.js");
  const { createIsolatedWorkspace } = await load("substrate/git/worktree.js");
  const project = join(root, label, "project");
  const head = makeBigRepository(project);
  const home = join(root, label, "home");
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: project });
  let n = 0;
  /** A fresh worker with 20 files edited, as spawn leaves it; the call that freezes its first version. */
  const freshWorker = () => {
    const worker: string = ctx.commands.run("bench.worker", { n: n++ }, (tx: unknown) =>
      insertWorker(tx, benchWorkerRow(project, home)),
    ).result;
    const ws = join(home, "workers", worker, "workspace");
    const { base } = createIsolatedWorkspace({ root: project, target: ws, adminName: `docket-${worker}` });
    ctx.commands.run("bench.base", { worker }, (tx: unknown) =>
      updateWorker(tx, worker, { base, baseHead: head, state: "active" }),
    );
    for (let c = 0; c < CHANGED; c++) {
      const i = c * 97 + 3;
      writeFileSync(join(ws, "src", `d${i % 40}`, `f${i}.ts`), `// edited by ${worker}\nexport const v = ${i};\n`);
    }
    const who = { worker, generation: 1, runToken: "tok" };
    return { body: "first", outcome: "completed", summary: "first", callId: `first-${worker}`, who };
  };
  return {
    async doorWay(): Promise<number> {
      const { who, ...input } = freshWorker();
      const t0 = performance.now();
      await (offLoop ? offLoop.doneOffLoop(ctx, who, input) : done(ctx, who, input));
      return performance.now() - t0;
    },
    direct(): number {
      const { who, ...input } = freshWorker();
      const t0 = performance.now();
      done(ctx, who, input);
      return performance.now() - t0;
    },
  };
}

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), "docket-bench-first-done-"));
try {
  const builds = [{ label: "this build", at: await buildAt(resolve(here, ".."), root, "after") }];
  const before = process.env.DOCKET_BENCH_DIST_BEFORE;
  if (before) builds.push({ label: "built before", at: await buildAt(resolve(before), root, "before") });
  const times = builds.map(() => ({ door: [] as number[], direct: [] as number[] }));
  for (let r = 0; r <= ROUNDS; r++)
    for (const [i, b] of builds.entries()) {
      const door = await b.at.doorWay();
      const direct = b.at.direct();
      if (r === 0) continue; // warm-up: a running door has made its first capture (and its thread) already
      times[i]!.door.push(door);
      times[i]!.direct.push(direct);
    }
  console.log(
    `machine: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; ${FILES} files, ${CHANGED} changed, a fresh worker per done, ${ROUNDS} rounds interleaved (medians)`,
  );
  for (const [i, b] of builds.entries())
    console.log(
      `  ${b.label.padEnd(12)} first done the door's way ${median(times[i]!.door).toFixed(1)} ms · direct ${median(times[i]!.direct).toFixed(1)} ms`,
    );
  const [now, then] = times;
  if (then) {
    for (const way of ["door", "direct"] as const)
      figure({
        id: `first-done.${way}`,
        label: `a worker's first done ${way === "door" ? "the door's way (off its loop)" : "direct on the engine"} (${FILES.toLocaleString("en-US")}-file repo, ${CHANGED} changed), median`,
        value: median(now![way]),
        unit: "ms",
        baseline: { label: "the same, built before", value: median(then[way]) },
      });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(0); // an idle capture thread of either build keeps nothing to wait for
