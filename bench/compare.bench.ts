// Benchmark: `compare` of a best-of group over 3 and over 10 candidates, each version changing 20 files (real
// worktrees, sidecars published through `done`), beside `verdict` of one of those versions, in the same run. Never asserts.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { compareGroup } from "../src/engine/groups/compare.js";
import { openEngine } from "../src/engine/open.js";
import { done } from "../src/engine/protocol/protocol.js";
import { verdictCard } from "../src/engine/review/verdict.js";
import { gitRepo } from "../test/support/git.js";
import { recordGroup } from "../test/support/group-fixture.js";
import { isolatedWorker } from "../test/support/protocol-worker.js";
import { figure } from "./support/figure.js";

const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 21);
const FILES = 20;
const root = mkdtempSync(join(tmpdir(), "docket-bench-compare-"));
const cleanups: (() => void)[] = [];
const t = { after: (fn: () => void) => void cleanups.push(fn) };
const lines = (n: number, tag: string) => `${Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join("\n")}\n`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timed(fn: () => void): number[] {
  fn(); // a first run warms the module graph and the statement cache
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

try {
  const files: Record<string, string> = { "README.md": "bench\n" };
  for (let f = 0; f < 40; f++) files[`src/f${f}.ts`] = lines(80, `f${f}`);
  mkdirSync(join(root, "project"));
  const project = gitRepo(join(root, "project"), files);
  const ctx = openEngine({ env: { DOCKET_HOME: join(root, "home"), DOCKET_SANDBOX: "off" }, cwd: project });
  const started = performance.now();
  const candidates = (count: number, offset: number): string[] =>
    Array.from({ length: count }, (_, k) => {
      const i = offset + k;
      const w = isolatedWorker(t, ctx, { project, runToken: `tok-${i}` });
      // 20 files each, half of them shared with the neighbouring candidates (overlap to find), half its own.
      for (let f = 0; f < FILES; f++) {
        const path = `src/f${(i * 10 + f) % 40}.ts`;
        const text = readFileSync(join(w.workspace, path), "utf8").split("\n");
        text[(i * 7 + f * 3) % 75] = `changed by candidate ${i}`;
        writeFileSync(join(w.workspace, path), text.join("\n"));
      }
      done(ctx, w, {
        callId: `bench-${i}`,
        body: `Candidate ${i} finished.\n`,
        outcome: "completed",
        summary: `candidate ${i}`,
        evidence: [{ kind: "test", text: "npm test: pass" }],
      });
      return w.worker;
    });
  const three = recordGroup(ctx, project, candidates(3, 0));
  const ten = recordGroup(ctx, project, candidates(10, 3));
  console.log(
    `machine: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        " ",
      )}; 13 candidates of ${FILES} changed files built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const shape = compareGroup(ctx, ten);
  console.log(
    `${ten}: ${shape.candidates.map((k) => k.files.length).join("+")} files compared, ${shape.overlaps.length} overlapping pairs`,
  );
  const c3 = timed(() => compareGroup(ctx, three, { surface: "cli" }));
  const c10 = timed(() => compareGroup(ctx, ten, { surface: "cli" }));
  const v1 = timed(() => verdictCard(ctx, "w1"));
  console.log(`compare ${three} (3 candidates × ${FILES} files)   p50 ${median(c3).toFixed(2)} ms`);
  console.log(`compare ${ten} (10 candidates × ${FILES} files)  p50 ${median(c10).toFixed(2)} ms`);
  console.log(`verdict w1 (one of them, the card a human reads)  p50 ${median(v1).toFixed(2)} ms`);
  const baseline = { label: "verdict of one candidate", value: median(v1) };
  figure({ id: "compare-3", label: "compare: best of 3, 20 files each", value: median(c3), unit: "ms", baseline });
  figure({ id: "compare-10", label: "compare: best of 10, 20 files each", value: median(c10), unit: "ms", baseline });
  ctx.close();
} finally {
  for (const fn of cleanups.reverse()) fn();
  rmSync(root, { recursive: true, force: true });
}
