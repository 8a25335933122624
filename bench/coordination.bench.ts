// Benchmark: Combine's dry merge of two 20-file frozen change sets on a 2,000-file repository beside a bare
// `git merge-tree` of the same two commits, and broadcast scoring over 100 running workers (pure and planned). Never asserts.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { broadcastSubject, scoreBroadcast, type BroadcastCandidate } from "../src/domain/talk/broadcast-scoring.js";
import { openEngine } from "../src/engine/open.js";
import { done } from "../src/engine/protocol/protocol.js";
import { previewCombine } from "../src/engine/review/combine.js";
import { planBroadcast } from "../src/engine/talk/broadcast.js";
import { gitRepo } from "../test/support/git.js";
import { isolatedWorker } from "../test/support/protocol-worker.js";
import { figure } from "./support/figure.js";

const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 11);
const FILES = 2000;
const CHANGED = 20;
const FLEET = 100;

const root = mkdtempSync(join(tmpdir(), "docket-bench-coord-"));
const cleanups: (() => void)[] = [];
const t = { after: (fn: () => void) => void cleanups.push(fn) };
const lines = (n: number, tag: string) => `${Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join("\n")}\n`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function timed(fn: () => unknown): number {
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Changes line `at` of each path in a directory (worktree or checkout). */
function edit(dir: string, paths: readonly string[], at: number, tag: string): void {
  for (const path of paths) {
    const text = readFileSync(join(dir, path), "utf8").split("\n");
    text[at] = `${tag} changed this line`;
    writeFileSync(join(dir, path), text.join("\n"));
  }
}

try {
  const files: Record<string, string> = { "README.md": "bench\n" };
  for (let d = 0; d < 40; d++)
    for (let f = 0; f < FILES / 40; f++) files[`src/d${d}/f${f}.ts`] = lines(60, `d${d}/f${f}`);
  mkdirSync(join(root, "project"));
  const project = gitRepo(join(root, "project"), files);
  const home = join(root, "home", "docket");
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: project });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  console.log(
    `machine: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${FILES + 1} files, ${ROUNDS} rounds`,
  );

  // Two workers, 20 files each, 5 of them shared: clean (different lines) and conflicting (the same line) pairs.
  const own = (w: number) => Array.from({ length: CHANGED - 5 }, (_, i) => `src/d${w * 10 + (i % 10)}/f${i}.ts`);
  const shared = Array.from({ length: 5 }, (_, i) => `src/d39/f${i}.ts`);
  const pair = (sameLine: boolean) =>
    [0, 1].map((w) => {
      const worker = isolatedWorker(t, ctx, { project, runToken: `tok-${sameLine}-${w}` });
      edit(worker.workspace, own(w), 10, `w${w}`);
      edit(worker.workspace, shared, sameLine ? 30 : 10 + w * 30, `w${w}`);
      done(ctx, worker, { callId: `c-${sameLine}-${w}`, body: "done\n", outcome: "completed", summary: `side ${w}` });
      return worker;
    });
  const [cleanA, cleanB] = pair(false);
  const [clashA, clashB] = pair(true);
  console.log(
    `dry merge, clean pair: ${previewCombine(ctx, cleanA!.worker, cleanB!.worker).text}; conflicting pair: ${previewCombine(ctx, clashA!.worker, clashB!.worker).text}`,
  );

  // The same two change sets as commits on the base, for a bare merge-tree.
  const base = git("rev-parse", "HEAD");
  const commitOf = (w: number, sameLine: boolean) => {
    git("checkout", "-q", "--detach", base);
    edit(project, own(w), 10, `w${w}`);
    edit(project, shared, sameLine ? 30 : 10 + w * 30, `w${w}`);
    git("commit", "-qam", `side ${w}`);
    return git("rev-parse", "HEAD");
  };
  const bare = { clean: [commitOf(0, false), commitOf(1, false)], clash: [commitOf(0, true), commitOf(1, true)] };
  git("checkout", "-q", "--detach", base);
  const mergeTree = (a: string, b: string) => {
    try {
      execFileSync("git", ["merge-tree", "--write-tree", a, b], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error; // 1: conflicts, the expected answer
    }
  };
  const rows = [
    ["bare git merge-tree --write-tree, clean", timed(() => mergeTree(bare.clean[0]!, bare.clean[1]!))],
    ["Combine dry merge (previewCombine), clean", timed(() => previewCombine(ctx, cleanA!.worker, cleanB!.worker))],
    ["bare git merge-tree --write-tree, conflicting", timed(() => mergeTree(bare.clash[0]!, bare.clash[1]!))],
    [
      "Combine dry merge (previewCombine), conflicting",
      timed(() => previewCombine(ctx, clashA!.worker, clashB!.worker)),
    ],
  ] as const;
  for (const [label, ms] of rows) console.log(`  ${label.padEnd(50)} median ${ms.toFixed(1)} ms`);
  const sets = `two frozen ${CHANGED}-file change sets (5 files shared), ${FILES + 1}-file repo, median of ${ROUNDS}`;
  figure({
    id: "combine-clean",
    label: `Combine's dry merge of ${sets}, clean`,
    value: rows[1][1],
    unit: "ms",
    baseline: { label: "bare `git merge-tree --write-tree` of the same commits", value: rows[0][1] },
  });
  figure({
    id: "combine-conflicting",
    label: `Combine's dry merge of ${sets}, 5 conflicts`,
    value: rows[3][1],
    unit: "ms",
    baseline: { label: "bare `git merge-tree --write-tree` of the same commits", value: rows[2][1] },
  });

  // Broadcast: 100 running workers, each with a frozen 3-file patch; the text names one path and a task word.
  const fleet = Array.from({ length: FLEET - 4 }, (_, i) => {
    const w = isolatedWorker(t, ctx, { project, runToken: `fleet-${i}` });
    edit(
      w.workspace,
      [`src/d${i % 40}/f${i % 50}.ts`, `src/d${(i + 7) % 40}/f${(i * 3) % 50}.ts`, `src/d${(i + 13) % 40}/f1.ts`],
      5,
      `fleet ${i}`,
    );
    done(ctx, w, { callId: `fleet-${i}`, body: "done\n", outcome: "completed", summary: `fleet ${i}` });
    return w;
  });
  ctx.db.prepare("UPDATE workers SET state = 'active'").run();
  const text = "src/d3/f1.ts changed its exports; the app config moved";
  const plan = planBroadcast(ctx, { text });
  const candidates: BroadcastCandidate[] = plan.rows.map((r, i) => ({
    worker: r.worker,
    kind: "general",
    task: `change the app ${i}`,
    edited: [`src/d${i % 40}/f${i % 50}.ts`, `src/d${(i + 13) % 40}/f1.ts`],
    read: [`src/d${i % 40}/f2.ts`],
    planned: [],
  }));
  const subject = broadcastSubject(text, { projectRoot: project });
  console.log(
    `broadcast over ${plan.rows.length} running workers (${fleet.length + 4} isolated): ${plan.affected.length} affected, ${plan.maybe.length} maybe, ${plan.rows.length - plan.affected.length - plan.maybe.length} unrelated`,
  );
  const scored = timed(() => scoreBroadcast(subject, candidates));
  const planned = timed(() => planBroadcast(ctx, { text }));
  console.log(`  ${"scoreBroadcast (pure, 100 candidates)".padEnd(50)} median ${scored.toFixed(2)} ms`);
  console.log(`  ${"planBroadcast (ledger, sidecars, live git status)".padEnd(50)} median ${planned.toFixed(1)} ms`);
  figure({
    id: "broadcast-score",
    label: `score a broadcast against ${candidates.length} candidates (pure), median of ${ROUNDS}`,
    value: scored,
    unit: "ms",
  });
  figure({
    id: "broadcast-plan",
    label: `plan a broadcast over ${plan.rows.length} running isolated workers (ledger, sidecars, live \`git status\`), median of ${ROUNDS}`,
    value: planned,
    unit: "ms",
  });
  ctx.close();
} finally {
  for (const fn of cleanups.reverse()) fn();
  rmSync(root, { recursive: true, force: true });
}
