// Benchmark: the pi parent's CPU time with 20 idle workers beside pi without Docket over the same window, and the
// time from a worker's `docket worker done` to the parent's notification. Prints figures, never asserts.
//
// DOCKET_BENCH_SECONDS (default 60) sets each CPU window; DOCKET_BENCH_RUNS (default 10) the latency runs.
// Everything is private: temp DOCKET_HOME / pi agent dir / TMPDIR, a private tmux socket, the scripted model.

import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parentFixture, type Parent } from "../test/support/pi-parent.js";
import { parentPiArgs, startPiRpc } from "../test/support/pi-rpc.js";
import { waitFor } from "../test/support/wait.js";
import { openEngine } from "../src/engine/open.js";
import { recordHeartbeat } from "../src/engine/workers/lifecycle.js";
import { readLaunchEnv } from "../src/files/workers/launch-env.js";
import { figure } from "./support/figure.js";

const SECONDS = Number(process.env.DOCKET_BENCH_SECONDS ?? 60);
const RUNS = Number(process.env.DOCKET_BENCH_RUNS ?? 10);
const WORKERS = 20;
const CLK_TCK = 100; // Linux USER_HZ; /proc/<pid>/stat counts utime and stime in these ticks

const cleanups: (() => void | Promise<void>)[] = [];
const t = { after: (fn: () => void | Promise<void>) => void cleanups.push(fn) };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** utime + stime of a process in ms, from /proc/<pid>/stat (fields 14 and 15, counted after the command name). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** Starts an interactive pi in its own tmux session of the fixture's private server; returns its pid. */
async function interactivePi(p: Parent, session: string, withDocket: boolean): Promise<number> {
  const env = Object.entries(p.env).flatMap(([k, v]) => (v === undefined ? [] : ["-e", `${k}=${v}`]));
  p.tmux.tmux(
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "160",
    "-y",
    "50",
    "-c",
    p.repo,
    ...env,
    process.execPath,
    ...parentPiArgs({ withoutDocket: !withDocket }),
  );
  await waitFor(
    `${session} to start`,
    () => p.tmux.tmux("capture-pane", "-p", "-t", session).includes("scripted"),
    120_000,
    250,
  );
  return Number(p.tmux.tmux("list-panes", "-t", session, "-F", "#{pane_pid}").trim());
}

/** CPU ms each process used over the window, by the same keys as `pids`. */
async function cpuWindow(
  label: string,
  pids: Record<string, number>,
  during?: (stop: () => boolean) => Promise<void>,
): Promise<Record<string, number>> {
  await sleep(3_000); // let start-up work (first paint, module loading tails) finish before the window opens
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
  const start = Date.now();
  let stopped = false;
  const side = during?.(() => stopped);
  await sleep(SECONDS * 1000);
  stopped = true;
  await side;
  const wall = (Date.now() - start) / 1000;
  console.log(`\n${label} (${wall.toFixed(1)} s window, load ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores)`);
  const out: Record<string, number> = {};
  for (const [k, pid] of Object.entries(pids)) {
    const used = cpuMs(pid) - before[k]!;
    out[k] = used;
    console.log(
      `  ${k.padEnd(34)} ${used.toFixed(0).padStart(6)} ms CPU  (${((used / (wall * 1000)) * 100).toFixed(2)}% of one core)`,
    );
  }
  return out;
}

const BARE = "pi without Docket";
const WITH = `pi with Docket (dock, ${WORKERS} workers)`;
function cpuFigure(id: string, what: string, used: Record<string, number>): void {
  figure({
    id,
    label: `the pi parent's CPU over a ${SECONDS} s window, ${WORKERS} ${what} workers`,
    value: used[WITH]!,
    unit: "ms",
    baseline: { label: `${BARE}, same window`, value: used[BARE]! },
  });
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main(): Promise<void> {
  const p = parentFixture(t);
  writeFileSync(join(p.home, "config.json"), JSON.stringify({ maxActive: WORKERS })); // the default fleet cap is 8
  console.log(`parent benchmark: ${WORKERS} idle command workers, ${SECONDS} s windows, ${RUNS} latency runs`);
  const spawnStart = Date.now();
  for (let i = 1; i <= WORKERS; i++) {
    const r = p.cli("spawn", "--agent", "command", "--cmd", "sleep 100000", "--yes", `idle worker ${i}`);
    if (r.code !== 0) throw new Error(`spawn ${i} failed: ${r.stderr}`);
  }
  console.log(`spawned ${WORKERS} workers in ${((Date.now() - spawnStart) / 1000).toFixed(1)} s`);

  const bare = await interactivePi(p, "bare", false);
  const docket = await interactivePi(p, "docket", true);
  await waitFor("the dock", () => p.tmux.tmux("capture-pane", "-p", "-t", "docket").includes("more: "), 60_000, 250);
  cpuFigure(
    "parent-cpu-idle",
    "idle",
    await cpuWindow("idle fleet: nothing changes in the ledger", { [BARE]: bare, [WITH]: docket }),
  );

  // The same window while every worker heartbeats every 15 s, as live pi workers do (a commit every 0.75 s).
  const engine = openEngine({ env: p.env, cwd: p.repo });
  // The ledger keeps only token hashes; each worker's token is in its own launch env file.
  const identities = p
    .ledger(
      (db) =>
        db.prepare("SELECT id AS worker, generation FROM workers ORDER BY seq").all() as {
          worker: string;
          generation: number;
        }[],
    )
    .map((w) => ({
      ...w,
      runToken: readLaunchEnv(join(p.home, "workers", w.worker, "launch.env"))?.DOCKET_RUN_TOKEN ?? "",
    }));
  const beating = await cpuWindow(
    `heartbeating fleet: ${WORKERS} heartbeats per 15 s`,
    { [BARE]: bare, [WITH]: docket },
    async (stopped) => {
      let n = 0;
      while (!stopped()) {
        recordHeartbeat(engine, identities[n % identities.length]!);
        n++;
        await sleep(15_000 / identities.length);
      }
    },
  );
  cpuFigure("parent-cpu-heartbeating", "heartbeating (one heartbeat each per 15 s)", beating);
  engine.close();
  p.tmux.tmux("kill-session", "-t", "bare");
  p.tmux.tmux("kill-session", "-t", "docket"); // one parent at a time: the first parent to see a notification shows it

  const pi = startPiRpc(t, { cwd: p.repo, env: p.env });
  await pi.call({ type: "get_state" });
  await pi.waitFor("the first dock", (m) => m.method === "setWidget" && m.widgetKey === "docket");
  const body = join(p.home, "..", "body.md");
  writeFileSync(body, "bench findings\n");
  const fromCommit: number[] = [];
  const fromStart: number[] = [];
  for (let i = 1; i <= Math.min(RUNS, WORKERS); i++) {
    const from = pi.seen.length;
    const started = Date.now();
    const r = p.asWorker(`w${i}`, "worker", "done", "--outcome", "findings", "--body-file", body);
    if (r.code !== 0) throw new Error(`done ${i} failed: ${r.stderr}`);
    const shown = await pi.waitFor(
      `w${i}'s ready notification`,
      (m) => m.method === "notify" && String(m.message).includes(`w${i} is ready for review`),
      { from, timeoutMs: 30_000 },
    );
    const arrived = pi.seenAt[pi.seen.indexOf(shown)]!;
    const created = p.ledger(
      (db) =>
        (
          db.prepare("SELECT created_at FROM notifications WHERE worker = ? AND kind = 'ready'").get(`w${i}`) as {
            created_at: string;
          }
        ).created_at,
    );
    fromCommit.push(arrived - Date.parse(created));
    fromStart.push(arrived - started);
    await sleep(500);
  }
  await pi.close();
  const show = (label: string, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(46)} p50 ${percentile(s, 0.5)} ms · p90 ${percentile(s, 0.9)} ms · max ${s[s.length - 1]} ms`,
    );
  };
  console.log(`\ndone → parent notification (RPC notify request), ${fromCommit.length} runs`);
  show("from the done command's commit", fromCommit);
  show("from starting `docket worker done` (node start-up)", fromStart);
  const p50 = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      0.5,
    );
  figure({
    id: "done-to-parent",
    label: `a worker's done → the pi parent's notification, from the done command's commit, p50 of ${fromCommit.length}`,
    value: p50(fromCommit),
    unit: "ms",
  });
  figure({
    id: "done-to-parent-process",
    label: `the same, from starting \`docket worker done\` (node start-up included), p50 of ${fromStart.length}`,
    value: p50(fromStart),
    unit: "ms",
  });
}

try {
  await main();
} finally {
  for (const fn of cleanups.reverse()) await fn();
}
