// The door's supervision, measured: from the door's SIGKILL to the first call it serves again, with no
// human command, and the memory of the door and of its supervisor. Part `restart` of bench/door.bench.ts.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { doorPaths } from "../../src/files/door-files.js";
import { reviveDoor } from "../../src/substrate/door-revive.js";
import { callDoor, doorOf } from "../../src/surfaces/shared/door-client.js";
import { exchangeLine } from "../../src/surfaces/shared/door-line.js";
import { addWorker, workLedger } from "../../test/support/work-ledger.js";
import { figure } from "./figure.js";

type Hooks = { after(fn: () => void | Promise<void>): void };

/** The door's state file (in the home's door control directory), which names its pid. */
export const doorStateFile = (home: string): string => join(home, "door-control", "state.json");

const pidIn = (file: string): number | undefined => {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid;
  } catch {
    return undefined;
  }
};
const kb = (pid: number, field: RegExp, file: string) =>
  Number(field.exec(readFileSync(`/proc/${pid}/${file}`, "utf8"))![1]) / 1024;
const memory = (pid: number) => ({
  rss: kb(pid, /VmRSS:\s+(\d+)/, "status"),
  pss: kb(pid, /^Pss:\s+(\d+)/m, "smaps_rollup"),
  priv: kb(pid, /^Private_Clean:\s+(\d+)/m, "smaps_rollup") + kb(pid, /^Private_Dirty:\s+(\d+)/m, "smaps_rollup"),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** SIGKILLs a supervised door `rounds` times; each time, how long until a heartbeat is served again. */
export async function supervisedRestart(t: Hooks, rounds: number): Promise<void> {
  const { ctx, home } = workLedger(t);
  const w = addWorker(ctx, "tok-restart");
  const door = doorOf({
    DOCKET_HOME: home,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  });
  const paths = doorPaths(home);
  reviveDoor(paths.dir); // as a worker's retry or a spawn starts it: the supervisor, which starts the door
  await callDoor(door, "heartbeat", {});
  const supervisor = pidIn(paths.supervisorState)!;
  const line = (n: number) =>
    `${JSON.stringify({ call: "heartbeat", worker: w.worker, generation: 1, token: w.runToken, args: { callId: `bench-${n}` } })}\n`;
  const served = async (n: number) => {
    try {
      return JSON.parse(await exchangeLine(door.socket, line(n), { waitMs: 2_000 })).ok === true;
    } catch {
      return false;
    }
  };
  const toServe: number[] = [];
  const toClient: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const dead = pidIn(paths.state)!;
    process.kill(dead, "SIGKILL");
    const t0 = performance.now();
    let n = r * 1_000;
    while (!(await served(n++))) await sleep(5);
    toServe.push(performance.now() - t0);
    while (pidIn(paths.state) === dead) await sleep(20); // the new door published its state
    process.kill(pidIn(paths.state)!, "SIGKILL");
    const t1 = performance.now();
    await callDoor(door, "heartbeat", {}); // a worker's client, with its own backoff
    toClient.push(performance.now() - t1);
    while (pidIn(paths.state) === undefined || !(await served(n++))) await sleep(20);
  }
  const doorMem = memory(pidIn(paths.state)!);
  const supMem = memory(supervisor);
  console.log("the door's supervision (SIGKILL, no human command):");
  console.log(
    `  death → first served call: p50 ${quantile(toServe, 0.5).toFixed(0)} ms, max ${Math.max(...toServe).toFixed(0)} ms` +
      ` (${rounds} kills); a worker's client call across the death: p50 ${quantile(toClient, 0.5).toFixed(0)} ms, max ${Math.max(...toClient).toFixed(0)} ms`,
  );
  console.log(
    `  memory: the door ${doorMem.rss.toFixed(1)} MB rss / ${doorMem.pss.toFixed(1)} pss / ${doorMem.priv.toFixed(1)} private;` +
      ` its supervisor ${supMem.rss.toFixed(1)} / ${supMem.pss.toFixed(1)} / ${supMem.priv.toFixed(1)} MB`,
  );
  figure({
    id: "door.restart.p50",
    label: "door SIGKILL → first served call, p50",
    value: quantile(toServe, 0.5),
    unit: "ms",
  });
  figure({
    id: "door.restart.max",
    label: "door SIGKILL → first served call, max",
    value: Math.max(...toServe),
    unit: "ms",
  });
  figure({
    id: "door.restart.client.p50",
    label: "a worker's call across a door SIGKILL, p50",
    value: quantile(toClient, 0.5),
    unit: "ms",
  });
  figure({ id: "door.supervisor.rss", label: "the door's supervisor, resident", value: supMem.rss, unit: "MB" });
  figure({ id: "door.supervisor.pss", label: "the door's supervisor, proportional", value: supMem.pss, unit: "MB" });
  process.kill(supervisor, "SIGTERM");
  process.kill(pidIn(paths.state)!, "SIGTERM");
}
