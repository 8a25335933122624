// The door under abuse: an honest worker's heartbeat, p50 and p99, alone and while another worker floods
// its socket with connections, streams unframed 63 MiB lines, or publishes a 300 MB change set. Prints figures.

import { spawn, type ChildProcess } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { openSync, closeSync, writeSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { callDoor, doorOf, type Door } from "../../src/surfaces/shared/door-client.js";
import { isolatedWorker } from "../../test/support/protocol-worker.js";
import { workLedger } from "../../test/support/work-ledger.js";
import { figure } from "./figure.js";

type T = { after(fn: () => void | Promise<void>): void };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/**
 * Up to `count` heartbeats of `door` one after another, 20 ms apart, for at most a minute (a door that cannot answer
 * costs each one the client's 20 s): each one's latency, and how many failed.
 */
async function heartbeats(door: Door, count: number): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  const until = performance.now() + 60_000;
  for (let i = 0; i < count && performance.now() < until; i++) {
    const start = performance.now();
    try {
      await callDoor(door, "heartbeat", {});
      ms.push(performance.now() - start);
    } catch {
      failed++;
    }
    await sleep(20);
  }
  return { ms, failed };
}

/** A child node process running `code` with the attacker's socket as argv[1] (never this process's event loop). */
function attacker(code: string, socket: string): ChildProcess {
  return spawn(process.execPath, ["-e", code, socket], { stdio: "ignore" });
}

/** 20,000 connections kept open (each one the door closes is opened again). */
const FLOOD = `
const net = require("net");
function one() { const s = net.connect(process.argv[1]); s.on("error", () => {}); s.on("close", () => setTimeout(one, 5)); }
for (let i = 0; i < 20000; i++) one();
`;

/** Four connections, each streaming a 63 MiB line with no newline, started again whenever the door closes one. */
const LINES = `
const net = require("net");
const chunk = Buffer.alloc(1024 * 1024, 120);
function one() {
  const s = net.connect(process.argv[1]);
  let sent = 0;
  const more = () => { while (sent < 63 && !s.destroyed) { sent++; if (!s.write(chunk)) return s.once("drain", more); } };
  s.on("connect", more); s.on("error", () => {}); s.on("close", () => setTimeout(one, 5));
}
for (let i = 0; i < 4; i++) one();
`;

function line(label: string, r: { ms: number[]; failed: number }, id: string): void {
  if (r.ms.length === 0) return void console.log(`  ${label.padEnd(44)} every heartbeat failed (${r.failed})`);
  const p50 = pct(r.ms, 0.5);
  const p99 = pct(r.ms, 0.99);
  console.log(
    `  ${label.padEnd(44)} p50 ${p50.toFixed(1)} ms · p99 ${p99.toFixed(1)} ms · max ${Math.max(...r.ms).toFixed(1)} ms · failed ${r.failed}/${r.ms.length + r.failed}`,
  );
  figure({ id: `door-heartbeat-p99-${id}`, label: `an honest heartbeat's p99 ${label}`, value: p99, unit: "ms" });
}

/** The honest heartbeat alone, then beside each abuse; `count` heartbeats each. */
export async function doorUnderAbuse(t: T, count: number): Promise<void> {
  const { ctx, home } = workLedger(t);
  const honest = isolatedWorker(t, ctx, { runToken: "tok-honest" });
  const bad = isolatedWorker(t, ctx, { runToken: "tok-bad" });
  const doorFor = (w: { worker: string; runToken: string }) =>
    doorOf({ DOCKET_HOME: home, DOCKET_WORKER_ID: w.worker, DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: w.runToken });
  const honestDoor = doorFor(honest);
  const badDoor = doorFor(bad);
  await callDoor(honestDoor, "heartbeat", {});
  await callDoor(badDoor, "heartbeat", {});
  const doorPid = (JSON.parse(readFileSync(join(home, "door-control", "state.json"), "utf8")) as { pid: number }).pid;
  console.log(`an honest worker's heartbeat through the door (${count} calls, 20 ms apart; in-process client):`);
  line("alone", await heartbeats(honestDoor, count), "alone");

  for (const [label, code, id] of [
    ["beside a flood of 20,000 connections", FLOOD, "flood"],
    ["beside four unframed 63 MiB lines", LINES, "lines"],
  ] as const) {
    const child = attacker(code, badDoor.socket);
    await sleep(2_000);
    line(label, await heartbeats(honestDoor, count), id);
    child.kill("SIGKILL");
    await sleep(1_000);
  }

  // 300 MB of random bytes in the other worker's workspace; its done is called again as soon as it is answered.
  const fd = openSync(join(bad.workspace, "big.bin"), "w");
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 300; i++) writeSync(fd, randomFillSync(block));
  closeSync(fd);
  let publishing = true;
  let answers = 0;
  const refusals = new Set<string>();
  const publisher = (async () => {
    for (let n = 0; publishing; n++) {
      await callDoor(badDoor, "done", { callId: `huge-${n}`, body: "b", outcome: "completed", summary: "huge" }).catch(
        (e: { code?: string }) => refusals.add(e.code ?? "?"),
      );
      answers++;
    }
  })();
  await sleep(500);
  line("beside a 300 MB done, again and again", await heartbeats(honestDoor, count), "huge-done");
  publishing = false;
  await publisher; // the call in flight is answered (or given up on by its client) first
  console.log(`     (the 300 MB done was answered ${answers} times: ${[...refusals].join(", ") || "published"})`);
  process.kill(doorPid, "SIGTERM");
}
