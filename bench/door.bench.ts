// Benchmark: the door's resident memory and CPU with 1, 20 and 50 workers, idle and busy (each worker making calls
// through its socket), and the resident memory of one `docket mcp` client. Prints figures; never asserts.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { callDoor, doorOf } from "../src/surfaces/shared/door-client.js";
import { addWorker, workLedger } from "../test/support/work-ledger.js";
import { isolatedWorker } from "../test/support/protocol-worker.js";
import { done } from "../src/engine/protocol/protocol.js";
import { writeFileSync } from "node:fs";
import { figure } from "./support/figure.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const hooks: (() => void | Promise<void>)[] = [];
const t = { after: (fn: () => void | Promise<void>) => void hooks.push(fn) };

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
/** Proportional set size: shared pages (node's own code, libraries) divided among the processes that map them. */
const pssMb = (pid: number) => Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))![1]) / 1024;
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").slice(readFileSync(`/proc/${pid}/stat`, "utf8").lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10; // utime + stime in clock ticks of 10 ms
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fleet(n: number): Promise<void> {
  const { ctx, home } = workLedger(t);
  const doors = Array.from({ length: n }, (_, i) => {
    const w = addWorker(ctx, `tok-${i}`);
    return doorOf({ DOCKET_HOME: home, DOCKET_WORKER_ID: w.worker, DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: w.runToken });
  });
  await callDoor(doors[0]!, "heartbeat", {});
  await sleep(500);
  const pid = (JSON.parse(readFileSync(join(home, "door", "state.json"), "utf8")) as { pid: number }).pid;
  const idle0 = cpuMs(pid);
  await sleep(5_000);
  const idleCpu = (cpuMs(pid) - idle0) / 5;
  const idleRss = rssMb(pid);
  const busy0 = cpuMs(pid);
  const start = performance.now();
  const CALLS = 20;
  await Promise.all(doors.map(async (d, i) => {
    for (let k = 0; k < CALLS; k++) await callDoor(d, k % 2 ? "heartbeat" : "note", { text: `note ${k}`, callId: `b-${i}-${k}` });
  }));
  const wall = performance.now() - start;
  const busyCpu = cpuMs(pid) - busy0;
  console.log(`  ${String(n).padStart(2)} workers: idle rss ${idleRss.toFixed(1)} MB (pss ${pssMb(pid).toFixed(1)} MB), cpu ${idleCpu.toFixed(1)} ms/s · busy (${n * CALLS} calls) rss ${rssMb(pid).toFixed(1)} MB, cpu ${busyCpu} ms, ${(wall / (n * CALLS)).toFixed(2)} ms/call wall · door share per worker ${(rssMb(pid) / n).toFixed(1)} MB`);
  process.kill(pid, "SIGTERM");
}

async function mcpClient(): Promise<void> {
  const { ctx, home } = workLedger(t);
  const w = addWorker(ctx, "tok-mcp");
  const child = spawn(process.execPath, [BIN, "mcp"], { env: { PATH: process.env.PATH, DOCKET_HOME: home, DOCKET_WORKER_ID: w.worker, DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: w.runToken }, stdio: ["pipe", "pipe", "inherit"] });
  await sleep(3_000);
  const bare = spawn(process.execPath, ["-e", "setTimeout(() => {}, 5000)"], { stdio: "ignore" });
  await sleep(1_000);
  console.log(`  docket mcp client (idle, connected to its door): rss ${rssMb(child.pid!).toFixed(1)} MB, pss ${pssMb(child.pid!).toFixed(1)} MB · a bare node beside it: rss ${rssMb(bare.pid!).toFixed(1)} MB, pss ${pssMb(bare.pid!).toFixed(1)} MB`);
  bare.kill();
  child.stdin.end();
  await new Promise((r) => child.on("close", r));
  const state = JSON.parse(readFileSync(join(home, "door", "state.json"), "utf8")) as { pid: number };
  try {
    process.kill(state.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

/** docket_done on the same worker and change set, run in this process on the engine (direct) and through the door. */
async function doneBeside(): Promise<void> {
  const { ctx, home } = workLedger(t);
  const files = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`src/f${i}.txt`, `line ${i}\n`]));
  const w = isolatedWorker(t, ctx, { files, runToken: "tok-done" });
  const door = doorOf({ DOCKET_HOME: home, DOCKET_WORKER_ID: w.worker, DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: w.runToken });
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
  console.log(`docket_done (200-file repo, 20 changed), median of 9: direct on the engine ${median(direct).toFixed(1)} ms · through the door ${median(through).toFixed(1)} ms (×${(median(through) / median(direct)).toFixed(2)})`);
  figure({ id: "door-done", label: "`docket_done` through the door (200-file repo, 20 changed), median", value: median(through), unit: "ms", baseline: { label: "the same call direct on the engine", value: median(direct) } });
  process.kill((JSON.parse(readFileSync(join(home, "door", "state.json"), "utf8")) as { pid: number }).pid, "SIGTERM");
}

console.log(`machine: 2 cpus, load ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log("the door (one process per home):");
for (const n of [1, 20, 50]) await fleet(n);
await mcpClient();
await doneBeside();
for (const fn of hooks.reverse()) await fn();
