// Benchmark: appending decisions to the ledger and asking "is this exact version approved?" with 10,000 decisions,
// each beside a bare baseline in the same run (anchor-performance rows "append one decision", "is … approved?").

import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openEngine } from "../src/engine/open.js";
import { approvalOf } from "../src/engine/review/target.js";
import { insertDecision } from "../src/ledger/review/decisions.js";
import { figure } from "./support/figure.js";

const N = 10_000;
const home = mkdtempSync(join(tmpdir(), "docket-bench-decisions-"));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;

try {
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  const append: number[] = [];
  for (let i = 0; i < N; i++) {
    const w = `w${(i % 500) + 1}`;
    const version = (Math.floor(i / 500) % 20) + 1;
    const pointer = { id: `worker-deliverable:${w}`, version, ref: `worker-deliverable:${w}:${version}` };
    const t0 = performance.now();
    ctx.commands.run("bench.decide", { i }, (tx) =>
      insertDecision(tx, {
        actor: "human",
        verb: i % 3 === 0 ? "reject" : "approve",
        worker: w,
        deliverable: pointer,
        evidenceRefs: [pointer.ref],
      }),
    );
    append.push(performance.now() - t0);
  }
  const bare: number[] = [];
  const file = join(home, "decisions.ndjson");
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    appendFileSync(file, `${JSON.stringify({ id: i, verb: "approve", ref: `worker-deliverable:w1:${i}` })}\n`);
    bare.push(performance.now() - t0);
  }
  const lookup: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const w = `w${(i % 500) + 1}`;
    const version = (i % 20) + 1;
    const t0 = performance.now();
    approvalOf(ctx.db, { id: `worker-deliverable:${w}`, version, ref: `worker-deliverable:${w}:${version}` });
    lookup.push(performance.now() - t0);
  }
  console.log(`decisions: ${N} appended, each one BEGIN IMMEDIATE command (WAL, synchronous=NORMAL)`);
  console.log(`  append one decision       p50 ${median(append).toFixed(3)} ms · p99 ${p99(append).toFixed(3)} ms`);
  console.log(
    `  bare appendFileSync       p50 ${median(bare).toFixed(3)} ms · p99 ${p99(bare).toFixed(3)} ms  (no transaction, no index)`,
  );
  console.log(
    `  "is this exact version approved?" over ${N} decisions: p50 ${median(lookup).toFixed(3)} ms · p99 ${p99(lookup).toFixed(3)} ms (indexed by ref)`,
  );
  figure({
    id: "append-decision",
    label: "append one decision (one durable command), p50",
    value: median(append),
    unit: "ms",
    baseline: { label: "appendFileSync", value: median(bare) },
  });
  figure({
    id: "is-approved",
    label: `"is this exact version approved?" over ${N.toLocaleString("en-US")} decisions, p50`,
    value: median(lookup),
    unit: "ms",
  });
  console.log(`  rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
  ctx.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
