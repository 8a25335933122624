// Benchmark: a fleet started at once — 8 and 16 command workers and 8 pi workers (scripted model) spawned at the same
// moment on one repository. Prints wall time to all-started and all-ready, `ls`/`verdict` latency during the start
// against idle, peak memory, failed spawns and model listings. Never asserts; each scenario gets a fresh home.
//
// DOCKET_BENCH_FLEET picks scenarios (default "cmd8,cmd16,pi8"); DOCKET_BENCH_ROUNDS (default 3) how often each runs,
// each round in a fresh home; DOCKET_BENCH_IDLE_RUNS (default 10) the idle reads per round.

import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { gitRepo } from "../test/support/git.js";
import { figure } from "./support/figure.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const SCRIPTED_MODEL = resolve(here, "..", "src", "surfaces", "pi", "scripted-model.js");
const SCENARIOS = (process.env.DOCKET_BENCH_FLEET ?? "cmd8,cmd16,pi8")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 3);
const IDLE_RUNS = Number(process.env.DOCKET_BENCH_IDLE_RUNS ?? 10);
const READY_TIMEOUT_MS = 240_000;
const PAGE_KB = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

function percentile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv, pids?: Set<number>): Promise<Run> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    if (child.pid) pids?.add(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      if (child.pid) pids?.delete(child.pid);
      done({ code: code ?? -1, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

/** Resident memory of every process under the given roots (Linux /proc), in MB. */
function treeRssMb(roots: number[]): number {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(readFileSync(`/proc/${name}/statm`, "utf8").split(" ")[1]) * PAGE_KB);
    } catch {
      // the process ended while we looked
    }
  }
  const inside = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (roots.includes(p)) return true;
    return false;
  };
  let kb = 0;
  for (const [pid, k] of rss) if (inside(pid)) kb += k;
  return kb / 1024;
}

interface Fleet {
  root: string;
  repo: string;
  home: string;
  socket: string;
  env: NodeJS.ProcessEnv;
  listingLog: string;
}

function makeFleet(label: string): Fleet {
  const root = mkdtempSync(join(tmpdir(), `docket-bench-fleet-${label}-`));
  const repo = join(root, "repo");
  mkdirSync(repo);
  gitRepo(repo, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`file-${i}.txt`, `line ${i}\n`.repeat(50)])));
  const home = join(root, "docket");
  const agent = join(root, "agent");
  for (const d of [home, agent, join(root, "tmp"), join(root, "home")]) mkdirSync(d, { recursive: true });
  // Loaded by pi with the scripted model: logs each `--list-models` run, so the bench can count listings.
  const counter = join(root, "count-listings.mjs");
  writeFileSync(
    counter,
    'import { appendFileSync } from "node:fs";\nexport default function () {\n  if (process.argv.includes("--list-models") && process.env.BENCH_LISTING_LOG) appendFileSync(process.env.BENCH_LISTING_LOG, `${process.pid}\\n`);\n}\n',
  );
  // Workers are contained as by default (where bubblewrap works): the counter is shown to them read-only.
  writeFileSync(join(home, "config.json"), JSON.stringify({ maxActive: 0, sandbox: { readOnlyPaths: [counter] } }));
  const listingLog = join(root, "listings.log");
  const socket = `docket-bench-${randomBytes(5).toString("hex")}`;
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: "C.UTF-8",
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: socket,
    PI_CODING_AGENT_DIR: agent,
    TMPDIR: join(root, "tmp"),
    HOME: join(root, "home"),
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    DOCKET_PI_ARGS: `-ne -ns -np -nc --no-themes -e ${SCRIPTED_MODEL} -e ${counter}`,
    BENCH_LISTING_LOG: listingLog,
  };
  return { root, repo, home, socket, env, listingLog };
}

function ledgerRows(f: Fleet): { id: string; state: string; window_id: string | null }[] {
  try {
    const db = new Database(join(f.home, "ledger.sqlite"), { readonly: true });
    try {
      return db.prepare("SELECT id, state, window_id FROM workers WHERE deleted_at IS NULL").all() as {
        id: string;
        state: string;
        window_id: string | null;
      }[];
    } finally {
      db.close();
    }
  } catch {
    return []; // no ledger yet
  }
}

function tmuxServerPid(socket: string): number | undefined {
  try {
    return (
      Number(
        execFileSync("tmux", ["-L", socket, "display-message", "-p", "#{pid}"], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        }).trim(),
      ) || undefined
    );
  } catch {
    return undefined;
  }
}

async function readLatencies(
  f: Fleet,
  until: () => boolean,
  maxRuns = Infinity,
): Promise<{ ls: number[]; verdict: number[] }> {
  const out = { ls: [] as number[], verdict: [] as number[] };
  while (!until() && out.ls.length < maxRuns) {
    for (const verb of ["ls", "verdict"] as const) {
      const r = await run([verb, "--json"], f.repo, f.env);
      if (r.code !== 0) throw new Error(`docket ${verb} failed during the bench: ${r.stderr}${r.stdout}`);
      out[verb].push(r.ms);
    }
  }
  return out;
}

function spawnArgs(kind: "command" | "pi", i: number, script: string): string[] {
  if (kind === "pi") {
    return [
      "spawn",
      "--as",
      "patcher",
      "--model",
      "docket-demo/scripted",
      "--env",
      `DOCKET_SCRIPTED_MODEL=${script}`,
      "--yes",
      "--json",
      `bench task ${i}`,
    ];
  }
  const cmd = `printf 'bench body ${i}\\n' | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary 'bench ${i}' --call-id done-${i} >/dev/null; exec sleep 600`;
  return ["spawn", "--agent", "command", "--cmd", cmd, "--json", `bench task ${i}`];
}

interface Round {
  startedMs: number;
  readyMs: number;
  failed: number;
  reasons: string[];
  phantoms: number;
  listings: number;
  peakMb: number;
  during: { ls: number[]; verdict: number[] };
  idle: { ls: number[]; verdict: number[] };
  empty: { ls: number[]; verdict: number[] };
}

async function round(name: string, kind: "command" | "pi", n: number): Promise<Round> {
  const f = makeFleet(name);
  try {
    const script = join(f.root, "script.json");
    const done = {
      name: "docket_done",
      id: "bench-done",
      arguments: { outcome: "completed", summary: "looked", evidence: [], recommendations: [], items: [] },
    };
    writeFileSync(script, JSON.stringify([{ text: "Nothing to change.", toolCall: done }, { text: "done" }]));
    const empty = await readLatencies(f, () => false, IDLE_RUNS);

    const live = new Set<number>();
    let peakMb = 0;
    let serverPid: number | undefined;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        serverPid ??= tmuxServerPid(f.socket);
        peakMb = Math.max(peakMb, treeRssMb([...live, ...(serverPid ? [serverPid] : [])]));
        await sleep(250);
      }
    })();

    const t0 = performance.now();
    let startedMs = 0;
    let results: Run[] | undefined;
    const spawns = Promise.all(
      Array.from({ length: n }, (_, i) => run(spawnArgs(kind, i + 1, script), f.repo, f.env, live)),
    ).then((rs) => {
      startedMs = performance.now() - t0;
      results = rs;
      return rs;
    });
    let readyMs = 0;
    let gaveUp = false;
    const ready = (async () => {
      for (;;) {
        if (results) {
          const ok = results.filter((r) => r.code === 0).length;
          if (ledgerRows(f).filter((r) => r.state === "ready").length >= ok) {
            readyMs = performance.now() - t0;
            return;
          }
        }
        if (performance.now() - t0 > READY_TIMEOUT_MS) {
          gaveUp = true;
          throw new Error(`${name}: not every started worker was ready within ${READY_TIMEOUT_MS} ms`);
        }
        await sleep(50);
      }
    })();
    // The readers stop when the wait gives up too, so its error reaches this round's cleanup (tmux server, door, files)
    // instead of ending the process as an unhandled rejection while they read.
    ready.catch(() => undefined);
    const during = await readLatencies(f, () => readyMs > 0 || gaveUp);
    try {
      await ready;
    } finally {
      sampling = false;
      await sampler;
    }
    const rs = await spawns;
    const idle = await readLatencies(f, () => false, IDLE_RUNS);

    const failed = rs.filter((r) => r.code !== 0);
    const reasonOf = (r: Run) => {
      try {
        return (JSON.parse(r.stdout) as { error?: { message?: string } }).error?.message ?? r.stderr.trim();
      } catch {
        return r.stderr.trim() || r.stdout.trim();
      }
    };
    let listings = 0;
    try {
      listings = readFileSync(f.listingLog, "utf8").split("\n").filter(Boolean).length;
    } catch {
      listings = 0; // pi was never asked
    }
    return {
      startedMs,
      readyMs,
      failed: failed.length,
      reasons: failed.map(reasonOf),
      phantoms: ledgerRows(f).filter((r) => r.state === "starting" && r.window_id === null).length,
      listings,
      peakMb,
      during,
      idle,
      empty,
    };
  } finally {
    try {
      execFileSync("tmux", ["-L", f.socket, "kill-server"], { stdio: "ignore" });
    } catch {
      // no server left on the bench socket
    }
    await sleep(1_000); // the wrappers of killed workers record their exit; let them finish before removing the home
    rmSync(f.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

async function scenario(name: string): Promise<void> {
  const m = /^(cmd|pi)(\d+)$/.exec(name);
  if (!m) throw new Error(`unknown scenario ${name}; use cmd<N> or pi<N>`);
  const kind = m[1] === "pi" ? "pi" : "command";
  const n = Number(m[2]);
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round(name, kind, n));
  const all = (pick: (r: Round) => number[]) => rounds.flatMap(pick);
  const each = (pick: (r: Round) => number) => rounds.map((r) => fmt(pick(r))).join(", ");
  const line = (xs: number[]) => `p50 ${fmt(percentile(xs, 0.5))} / p95 ${fmt(percentile(xs, 0.95))} (${xs.length})`;
  console.log(
    `\n${n} ${kind} workers at once, ${ROUNDS} rounds (load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
  );
  console.log(`  all started: ${each((r) => r.startedMs)} · all ready: ${each((r) => r.readyMs)}`);
  console.log(
    `  failed spawns: ${rounds.map((r) => `${r.failed}/${n}`).join(", ")} · left starting without a window: ${rounds.map((r) => r.phantoms).join(", ")}`,
  );
  for (const reason of new Set(rounds.flatMap((r) => r.reasons)))
    console.log(`    failure: ${reason.replace(/\s+/g, " ").slice(0, 180)}`);
  if (kind === "pi") console.log(`  pi model listings per round: ${rounds.map((r) => r.listings).join(", ")}`);
  for (const verb of ["ls", "verdict"] as const) {
    const during = all((r) => r.during[verb]);
    const idle = all((r) => r.idle[verb]);
    console.log(
      `  ${verb.padEnd(7)} during the start ${line(during)} · idle fleet ${line(idle)} · empty ${line(all((r) => r.empty[verb]))} · p95 ratio ${(percentile(during, 0.95) / percentile(idle, 0.95)).toFixed(2)}×`,
    );
  }
  console.log(
    `  peak memory of spawns, readers and workers: ${rounds.map((r) => `${r.peakMb.toFixed(0)} MB`).join(", ")}`,
  );

  const what = `${n} ${kind} workers spawned at once`;
  const failed = `${rounds.reduce((a, r) => a + r.failed, 0)} of ${n * ROUNDS} spawns failed`;
  const mid = (pick: (r: Round) => number) => percentile(rounds.map(pick), 0.5);
  const ofRounds = ROUNDS === 1 ? "one round" : `median of ${ROUNDS} rounds`;
  figure({
    id: `fleet-${name}-started`,
    label: `${what}: all started, ${ofRounds} (${failed})`,
    value: mid((r) => r.startedMs),
    unit: "ms",
  });
  figure({
    id: `fleet-${name}-ready`,
    label: `${what}: all ready for review, ${ofRounds}${kind === "pi" ? ` (pi model listings per round: ${rounds.map((r) => r.listings).join(", ")})` : ""}`,
    value: mid((r) => r.readyMs),
    unit: "ms",
  });
  for (const verb of ["ls", "verdict"] as const) {
    figure({
      id: `fleet-${name}-${verb}-p95`,
      label: `${what}: \`${verb} --json\` p95 during the start`,
      value: percentile(
        all((r) => r.during[verb]),
        0.95,
      ),
      unit: "ms",
      baseline: {
        label: "p95 on the idle fleet after it",
        value: percentile(
          all((r) => r.idle[verb]),
          0.95,
        ),
      },
    });
  }
  figure({
    id: `fleet-${name}-memory`,
    label: `${what}: peak memory of spawns, readers and workers, ${ROUNDS === 1 ? "one round" : `largest of ${ROUNDS} rounds`}`,
    value: Math.max(...rounds.map((r) => r.peakMb)),
    unit: "MB",
  });
}

console.log(
  `machine: ${cpus().length} cpu, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const s of SCENARIOS) {
  try {
    await scenario(s);
  } catch (error) {
    console.log(`\n${s}: the scenario failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
