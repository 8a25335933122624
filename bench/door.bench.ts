// Benchmark: `docket worker heartbeat` and `report` through the door beside `node -e 0` in the same rounds; the door's
// resident memory and CPU with 1, 20 and 50 workers, idle and busy (each worker making calls through its socket); the
// resident memory of `docket mcp` clients. Prints figures; never asserts.

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { callDoor, doorOf } from "../src/surfaces/shared/door-client.js";
import { addWorker, workLedger } from "../test/support/work-ledger.js";
import { isolatedWorker } from "../test/support/protocol-worker.js";
import { done } from "../src/engine/protocol/protocol.js";
import { writeFileSync } from "node:fs";
import { figure } from "./support/figure.js";
import { printFigures, timeProcesses } from "./support/processes.js";
import { addItem } from "../src/engine/work/items.js";
import { dispatchItems } from "../src/engine/work/dispatch.js";
import { doorUnderAbuse } from "./support/door-abuse.js";
import { doorStateFile, supervisedRestart } from "./support/door-restart.js";

const here = dirname(fileURLToPath(import.meta.url));
/** DOCKET_BENCH_BIN runs another checkout's docket (a before figure beside this one's after). */
const BIN = process.env.DOCKET_BENCH_BIN ?? resolve(here, "..", "..", "bin", "docket.js");
/** DOCKET_BENCH_NODE runs the worker's client calls (and `node -e 0` beside them) on another node (they load no SQLite). */
const NODE = process.env.DOCKET_BENCH_NODE ?? process.execPath;
const hooks: (() => void | Promise<void>)[] = [];
const t = { after: (fn: () => void | Promise<void>) => void hooks.push(fn) };

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
/** Proportional set size: shared pages (node's own code, libraries) divided among the processes that map them. */
const pssMb = (pid: number) =>
  Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))![1]) / 1024;
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8")
    .slice(readFileSync(`/proc/${pid}/stat`, "utf8").lastIndexOf(")") + 2)
    .split(" ");
  return (Number(f[11]) + Number(f[12])) * 10; // utime + stime in clock ticks of 10 ms
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fleet(n: number): Promise<void> {
  const { ctx, home } = workLedger(t);
  const doors = Array.from({ length: n }, (_, i) => {
    const w = addWorker(ctx, `tok-${i}`);
    return doorOf({
      DOCKET_HOME: home,
      DOCKET_WORKER_ID: w.worker,
      DOCKET_GENERATION: "1",
      DOCKET_RUN_TOKEN: w.runToken,
    });
  });
  await callDoor(doors[0]!, "heartbeat", {});
  await sleep(500);
  const pid = (JSON.parse(readFileSync(doorStateFile(home), "utf8")) as { pid: number }).pid;
  const idle0 = cpuMs(pid);
  await sleep(5_000);
  const idleCpu = (cpuMs(pid) - idle0) / 5;
  const idleRss = rssMb(pid);
  const busy0 = cpuMs(pid);
  const start = performance.now();
  const CALLS = 20;
  await Promise.all(
    doors.map(async (d, i) => {
      for (let k = 0; k < CALLS; k++)
        await callDoor(d, k % 2 ? "heartbeat" : "note", { text: `note ${k}`, callId: `b-${i}-${k}` });
    }),
  );
  const wall = performance.now() - start;
  const busyCpu = cpuMs(pid) - busy0;
  console.log(
    `  ${String(n).padStart(2)} workers: idle rss ${idleRss.toFixed(1)} MB (pss ${pssMb(pid).toFixed(1)} MB), cpu ${idleCpu.toFixed(1)} ms/s · busy (${n * CALLS} calls) rss ${rssMb(pid).toFixed(1)} MB, cpu ${busyCpu} ms, ${(wall / (n * CALLS)).toFixed(2)} ms/call wall, ${((n * CALLS) / (wall / 1000)).toFixed(0)} calls/s, door cpu ${(busyCpu / (n * CALLS)).toFixed(2)} ms/call · door share per worker ${(rssMb(pid) / n).toFixed(1)} MB`,
  );
  process.kill(pid, "SIGTERM");
}

/** Private memory (USS): the pages only this process holds, clean and dirty — what it costs beyond node's shared code. */
const ussMb = (pid: number) => {
  const roll = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  return (Number(/^Private_Clean:\s+(\d+)/m.exec(roll)![1]) + Number(/^Private_Dirty:\s+(\d+)/m.exec(roll)![1])) / 1024;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** `n` Claude Code / Codex workers' `docket mcp` clients idle on one door: each client's memory and the door's share. */
async function mcpClients(n: number): Promise<void> {
  const { ctx, home } = workLedger(t);
  const children = Array.from({ length: n }, (_, i) => {
    const w = addWorker(ctx, `tok-mcp-${i}`);
    const door = doorOf({
      DOCKET_HOME: home,
      DOCKET_WORKER_ID: w.worker,
      DOCKET_GENERATION: "1",
      DOCKET_RUN_TOKEN: w.runToken,
    });
    return spawn(process.execPath, [BIN, "mcp"], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        DOCKET_DOOR: door.socket,
        DOCKET_WORKER_ID: w.worker,
        DOCKET_GENERATION: "1",
        DOCKET_RUN_TOKEN: w.runToken,
      },
      stdio: ["pipe", "pipe", "inherit"],
    });
  });
  // The first heartbeat of the last client starts (or finds) the door; then every client idles on its inbox long-poll.
  const heartbeats = () =>
    (ctx.db.prepare("SELECT COUNT(*) AS n FROM workers WHERE heartbeat_at IS NOT NULL").get() as { n: number }).n;
  for (let waited = 0; heartbeats() < n && waited < 120_000; waited += 250) await sleep(250);
  await sleep(2_000);
  const bare = spawn(process.execPath, ["-e", "setTimeout(() => {}, 5000)"], { stdio: "ignore" });
  await sleep(1_000);
  const pids = children.map((c) => c.pid!);
  const doorPid = (JSON.parse(readFileSync(doorStateFile(home), "utf8")) as { pid: number }).pid;
  const client = { rss: mean(pids.map(rssMb)), pss: mean(pids.map(pssMb)), uss: mean(pids.map(ussMb)) };
  const door = { rss: rssMb(doorPid), pss: pssMb(doorPid), uss: ussMb(doorPid) };
  console.log(
    `  ${String(n).padStart(2)} docket mcp clients (${heartbeats()}/${n} beat): each rss ${client.rss.toFixed(1)} MB, pss ${client.pss.toFixed(1)} MB, private ${client.uss.toFixed(1)} MB · a bare node: rss ${rssMb(bare.pid!).toFixed(1)} MB, pss ${pssMb(bare.pid!).toFixed(1)} MB, private ${ussMb(bare.pid!).toFixed(1)} MB · the door: rss ${door.rss.toFixed(1)} MB, pss ${door.pss.toFixed(1)} MB`,
  );
  console.log(
    `     per worker (door/${n} + one client): by rss ${(door.rss / n + client.rss).toFixed(1)} MB, by pss ${(door.pss / n + client.pss).toFixed(1)} MB, by private pages ${(door.uss / n + client.uss).toFixed(1)} MB (aim ≤ 30 MB)`,
  );
  figure({
    id: `door-mcp-${n}`,
    label: `Docket's memory per Claude Code / Codex worker with ${n} (door share + \`docket mcp\`, by pss)`,
    value: door.pss / n + client.pss,
    unit: "MB",
  });
  bare.kill();
  for (const c of children) c.stdin.end();
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on("close", r)))));
  try {
    process.kill(doorPid, "SIGTERM");
  } catch {
    // already gone
  }
}

/** docket_done on the same worker and change set, run in this process on the engine (direct) and through the door. */
async function doneBeside(): Promise<void> {
  const { ctx, home } = workLedger(t);
  const files = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`src/f${i}.txt`, `line ${i}\n`]));
  const w = isolatedWorker(t, ctx, { files, runToken: "tok-done" });
  const door = doorOf({
    DOCKET_HOME: home,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  });
  await callDoor(door, "heartbeat", {});
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const direct: number[] = [];
  const through: number[] = [];
  for (let run = 0; run < 9; run++) {
    for (let i = 0; i < 20; i++) writeFileSync(join(w.workspace, "src", `f${i}.txt`), `run ${run} ${i}\n`);
    let start = performance.now();
    done(ctx, w, { callId: `direct-${run}`, body: `run ${run}`, outcome: "completed", summary: "s" });
    direct.push(performance.now() - start);
    for (let i = 0; i < 20; i++) writeFileSync(join(w.workspace, "src", `f${i}.txt`), `door ${run} ${i}\n`);
    start = performance.now();
    await callDoor(door, "done", { callId: `door-${run}`, body: `run ${run}`, outcome: "completed", summary: "s" });
    through.push(performance.now() - start);
  }
  console.log(
    `docket_done (200-file repo, 20 changed), median of 9: direct on the engine ${median(direct).toFixed(1)} ms · through the door ${median(through).toFixed(1)} ms (×${(median(through) / median(direct)).toFixed(2)}); the first of each: ${direct[0]!.toFixed(1)} ms direct, ${through[0]!.toFixed(1)} ms through the door`,
  );
  figure({
    id: "door-done",
    label: "`docket_done` through the door (200-file repo, 20 changed), median",
    value: median(through),
    unit: "ms",
    baseline: { label: "the same call direct on the engine", value: median(direct) },
  });
  process.kill((JSON.parse(readFileSync(doorStateFile(home), "utf8")) as { pid: number }).pid, "SIGTERM");
}

/** A command worker's calls as whole processes, given only DOCKET_DOOR, its identity and an empty HOME (as launched). */
async function workerCalls(rounds: number): Promise<void> {
  const { ctx, home } = workLedger(t);
  const w = addWorker(ctx, "tok-calls");
  // A launched worker has its directory, so each call's status projection is written as in use (rows alone skip it).
  mkdirSync(ctx.home.workerDir(w.worker), { recursive: true, mode: 0o700 });
  const items = Array.from(
    { length: 2 * (rounds + 1) },
    (_, j) => addItem(ctx, { kind: "todo", text: `item ${j}` }).id,
  );
  for (let k = 0; k < items.length; k += 10) dispatchItems(ctx, { worker: w.worker, items: items.slice(k, k + 10) });
  const door = doorOf({
    DOCKET_HOME: home,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  });
  await callDoor(door, "heartbeat", {});
  const empty = join(home, "empty-home");
  mkdirSync(empty);
  const env = {
    PATH: process.env.PATH,
    HOME: empty,
    DOCKET_DOOR: door.socket,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  };
  const at = { cwd: empty, env };
  const report = (bin: string, r: number) => [
    NODE,
    bin,
    "worker",
    "report",
    "--item",
    items[r]!,
    "--outcome",
    "done",
    "--body",
    `finished ${items[r]}`,
  ];
  // DOCKET_BENCH_BIN_BEFORE: another checkout's docket in the same rounds, for a before figure beside this one's.
  const other = process.env.DOCKET_BENCH_BIN_BEFORE;
  const half = rounds + 1; // each report case reports its own half of the items
  console.log(`a command worker's calls through the door, ${rounds} rounds interleaved, beside node -e 0:`);
  printFigures(
    timeProcesses(
      [
        { label: "node -e 0", argv: [NODE, "-e", "0"], options: at },
        { label: "docket worker heartbeat (door)", argv: [NODE, BIN, "worker", "heartbeat"], options: at },
        { label: "docket worker report (door)", argv: report(BIN, 0), options: at, before: (r) => report(BIN, r) },
        ...(other
          ? [
              {
                label: "before: docket worker heartbeat (door)",
                argv: [NODE, other, "worker", "heartbeat"],
                options: at,
              },
              {
                label: "before: docket worker report (door)",
                argv: report(other, half),
                options: at,
                before: (r: number) => report(other, half + r),
              },
            ]
          : []),
      ],
      rounds,
    ),
    { "docket worker heartbeat (door)": 1.35, "docket worker report (door)": 1.35 },
  );
  process.kill((JSON.parse(readFileSync(doorStateFile(home), "utf8")) as { pid: number }).pid, "SIGTERM");
}

/** DOCKET_BENCH_DOOR_PARTS: which parts to run (comma-separated: calls, fleet, mcp, done, abuse, restart); all by default. */
const parts = new Set((process.env.DOCKET_BENCH_DOOR_PARTS ?? "calls,fleet,mcp,done,abuse,restart").split(","));
console.log(
  `machine: 2 cpus, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
if (parts.has("calls")) await workerCalls(Number(process.env.DOCKET_BENCH_ROUNDS ?? 21));
if (parts.has("fleet")) console.log("the door (one process per home):");
if (parts.has("fleet")) for (const n of [1, 20, 50]) await fleet(n);
if (parts.has("mcp")) console.log("docket mcp clients, idle on their door:");
if (parts.has("mcp")) for (const n of [1, 20, 50]) await mcpClients(n);
if (parts.has("done")) await doneBeside();
if (parts.has("abuse")) await doorUnderAbuse(t, Number(process.env.DOCKET_BENCH_ABUSE_CALLS ?? 200));
if (parts.has("restart")) await supervisedRestart(t, Number(process.env.DOCKET_BENCH_KILLS ?? 10));
for (const fn of hooks.reverse()) await fn();
