// Benchmark: per-item reports on 10,000 items from 1 and from 4 processes, each beside a bare
// BEGIN IMMEDIATE; INSERT; COMMIT loop on the same kind of file (WAL, same pragmas) in the same run. Prints, never asserts.

import { fork } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openEngine } from "../src/engine/open.js";
import { report } from "../src/engine/protocol/report.js";
import { insertBinding } from "../src/ledger/work/bindings.js";
import { insertDispatch } from "../src/ledger/work/dispatch.js";
import { insertItem } from "../src/ledger/work/items.js";
import { insertMessage } from "../src/ledger/talk/messages.js";
import { insertObligation } from "../src/ledger/work/obligations.js";
import { openLedger } from "../src/ledger/core/open.js";
import { hashRunToken, insertWorker } from "../src/ledger/workers/workers.js";
import { figure } from "./support/figure.js";

const ITEMS = 10_000;
const SELF = fileURLToPath(import.meta.url);

interface ChildStats {
  latenciesMs: number[];
  startMs: number;
  endMs: number;
  rss: number;
  refused: number;
  /** WAL frames (pages) written per commit; only measured with checkpoints deferred (the WAL only grows then). */
  framesPerCommit: number;
}

const nowMs = () => performance.timeOrigin + performance.now();

// ── child side ───────────────────────────────────────────────────────────────────────────────────────────
async function child(mode: string, home: string, worker: string, items: string[]): Promise<void> {
  let step: (i: number) => boolean;
  let close: () => void;
  let ledger: string;
  if (mode === "report") {
    const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
    if (process.env.BENCH_NO_AUTOCHECKPOINT) ctx.db.pragma("wal_autocheckpoint = 0");
    const who = { worker, generation: 1, runToken: `tok-${worker}` };
    ledger = ctx.home.ledger;
    step = (i) =>
      report(ctx, who, {
        item: items[i]!,
        outcome: i % 2 ? "done" : "released",
        body: `reported ${items[i]}`,
        callId: items[i],
      }).status === "resolved";
    close = () => ctx.close();
  } else {
    ledger = join(home, "bare.sqlite");
    const db = openLedger(ledger);
    if (process.env.BENCH_NO_AUTOCHECKPOINT) db.pragma("wal_autocheckpoint = 0");
    const insert = db.prepare("INSERT INTO bare (body) VALUES (?)");
    step = (i) => {
      db.exec("BEGIN IMMEDIATE");
      insert.run(`row ${worker} ${i}`);
      db.exec("COMMIT");
      return true;
    };
    close = () => db.close();
  }
  process.send!({ ready: true });
  await new Promise<void>((res) => process.once("message", () => res()));
  const latenciesMs: number[] = [];
  let refused = 0;
  const walBytes = () => statSync(`${ledger}-wal`).size;
  const wal0 = walBytes();
  const startMs = nowMs();
  for (let i = 0; i < items.length; i++) {
    const t0 = performance.now();
    if (!step(i)) refused++;
    latenciesMs.push(performance.now() - t0);
  }
  const endMs = nowMs();
  const framesPerCommit = (walBytes() - wal0) / (4096 + 24) / items.length;
  const stats: ChildStats = { latenciesMs, startMs, endMs, rss: process.memoryUsage().rss, refused, framesPerCommit };
  close();
  process.send!(stats, () => process.exit(0));
}

// ── parent side ──────────────────────────────────────────────────────────────────────────────────────────
function seed(home: string, processes: number): { worker: string; items: string[] }[] {
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  const per = ITEMS / processes;
  const out = ctx.commands.run("bench.seed", {}, (tx) =>
    Array.from({ length: processes }, (_, p) => {
      const worker = insertWorker(tx, {
        task: "bench",
        kind: "general",
        agent: "command",
        command: "true",
        execution: {},
        cwd: home,
        projectRoot: home,
        workspace: () => home,
        workspaceMode: "shared",
        runToken: "",
      });
      // The child speaks as the worker with the token `tok-<id>`; the ledger keeps only its hash.
      tx.db.prepare("UPDATE workers SET run_token_hash = ? WHERE id = ?").run(hashRunToken(`tok-${worker}`), worker);
      tx.db
        .prepare("UPDATE launches SET run_token_hash = ? WHERE worker = ?")
        .run(hashRunToken(`tok-${worker}`), worker);
      const items: string[] = [];
      for (let k = 0; k < per; k += 10) {
        const dispatch = insertDispatch(tx, worker, 1);
        for (let j = k; j < Math.min(per, k + 10); j++) {
          const item = insertItem(tx, j % 3 ? "todo" : "request", `bench item ${p}.${j}`);
          const binding = insertBinding(tx, { dispatch, item: item.id, worker, generation: 1, acceptedRevision: 1 });
          insertObligation(tx, { binding, item: item.id, worker, dueAt: tx.now });
          items.push(item.id);
        }
        insertMessage(tx, { worker, kind: "work", body: "bench", dispatch });
      }
      return { worker, items };
    }),
  ).result;
  ctx.close();
  return out;
}

async function runPhase(
  mode: "report" | "bare",
  processes: number,
  deferCheckpoints = false,
): Promise<{ perSec: number; p50: number; p99: number; rss: number; refused: number; frames: number }> {
  const home = mkdtempSync(join(tmpdir(), "docket-bench-"));
  try {
    let jobs: { worker: string; items: string[] }[];
    if (mode === "report") jobs = seed(home, processes);
    else {
      const db = openLedger(join(home, "bare.sqlite"));
      db.exec("CREATE TABLE bare (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
      db.close();
      jobs = Array.from({ length: processes }, (_, p) => ({
        worker: `p${p}`,
        items: Array.from({ length: ITEMS / processes }, (_, i) => String(i)),
      }));
    }
    const children = jobs.map((j) =>
      fork(SELF, ["--child", mode, home, j.worker, ...j.items], {
        stdio: ["ignore", "inherit", "inherit", "ipc"],
        env: { ...process.env, ...(deferCheckpoints ? { BENCH_NO_AUTOCHECKPOINT: "1" } : {}) },
      }),
    );
    const ready = children.map((c) => new Promise<void>((res) => c.once("message", () => res())));
    await Promise.all(ready);
    const results = children.map(
      (c) => new Promise<ChildStats>((res) => c.once("message", (m) => res(m as ChildStats))),
    );
    children.forEach((c) => c.send("go"));
    const stats = await Promise.all(results);
    const all = stats.flatMap((s) => s.latenciesMs).sort((a, b) => a - b);
    const wall = Math.max(...stats.map((s) => s.endMs)) - Math.min(...stats.map((s) => s.startMs));
    return {
      perSec: (all.length / wall) * 1000,
      p50: all[Math.floor(all.length * 0.5)]!,
      p99: all[Math.floor(all.length * 0.99)]!,
      rss: Math.max(...stats.map((s) => s.rss)),
      refused: stats.reduce((n, s) => n + s.refused, 0),
      frames: stats[0]!.framesPerCommit,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function parent(): Promise<void> {
  console.log(`per-item reports on ${ITEMS} items (each its own BEGIN IMMEDIATE command with an idempotency key)`);
  console.log(
    `machine: ${cpus().length} cpus, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")} at start`,
  );
  for (const processes of [1, 4]) {
    const bare = await runPhase("bare", processes);
    const rep = await runPhase("report", processes);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    console.log(`\n${processes} process${processes === 1 ? "" : "es"}:`);
    console.log(
      `  report       ${rep.perSec.toFixed(0).padStart(7)} /s   p50 ${rep.p50.toFixed(3)} ms   p99 ${rep.p99.toFixed(3)} ms   rss ${mb(rep.rss)}${rep.refused ? `   REFUSED ${rep.refused}` : ""}`,
    );
    console.log(
      `  bare insert  ${bare.perSec.toFixed(0).padStart(7)} /s   p50 ${bare.p50.toFixed(3)} ms   p99 ${bare.p99.toFixed(3)} ms   rss ${mb(bare.rss)}`,
    );
    console.log(
      `  ratio        ${((rep.perSec / bare.perSec) * 100).toFixed(1)} % of the bare loop (aim ≥ 25 %, p99 < 5 ms)`,
    );
    figure({
      id: `report-${processes}p`,
      label: `per-item report, ${processes} process${processes === 1 ? "" : "es"} (one command, p50 ${rep.p50.toFixed(2)} ms)`,
      value: rep.perSec,
      unit: "/s",
      baseline: { label: "bare insert commit", value: bare.perSec },
    });
  }
  // Where the time goes: a report commit writes many more WAL frames (the tables and indexes that change together) than
  // the bare loop, so it also reaches WAL auto-checkpoints (which fsync) far more often. This pair shows the
  // checkpoints' share, and with the WAL only growing, the pages each commit writes.
  const bare = await runPhase("bare", 1, true);
  const rep = await runPhase("report", 1, true);
  console.log(`\n1 process, wal_autocheckpoint = 0 on both (checkpoint fsyncs deferred):`);
  console.log(
    `  report       ${rep.perSec.toFixed(0).padStart(7)} /s   p50 ${rep.p50.toFixed(3)} ms   p99 ${rep.p99.toFixed(3)} ms   ${rep.frames.toFixed(1)} WAL pages per commit`,
  );
  console.log(
    `  bare insert  ${bare.perSec.toFixed(0).padStart(7)} /s   p50 ${bare.p50.toFixed(3)} ms   p99 ${bare.p99.toFixed(3)} ms   ${bare.frames.toFixed(1)} WAL pages per commit`,
  );
  console.log(`  ratio        ${((rep.perSec / bare.perSec) * 100).toFixed(1)} %`);
  console.log(`\nparent rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
}

if (process.argv[2] === "--child") {
  const [, , , mode, home, worker, ...items] = process.argv;
  await child(mode!, home!, worker!, items);
} else {
  await parent();
}
