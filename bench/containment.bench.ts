// Benchmark: spawn → first heartbeat for a command worker contained (bubblewrap) beside not contained, interleaved in
// the same run; a contained `worker done`; and 16 contained workers started at once, each reaching its heartbeat.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
const RUNS = 7;
const BURST = 16;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

const root = mkdtempSync(join(tmpdir(), "docket-bench-contain-"));
const socket = `docket-bench-${randomBytes(6).toString("hex")}`;
try {
  const project = join(root, "project");
  mkdirSync(project);
  gitRepo(project, { "README.md": "bench\n" });
  const homes = { contained: join(root, "docket-contained"), open: join(root, "docket-open") };
  writeFileSync(
    join(mkdirp(homes.contained), "config.json"),
    JSON.stringify({ maxActive: 0, sandbox: { mode: "required", readOnlyPaths: [root] } }),
  );
  writeFileSync(join(mkdirp(homes.open), "config.json"), JSON.stringify({ maxActive: 0, sandbox: "off" }));
  for (const d of ["tmp", "home", "agent"]) mkdirp(join(root, d));
  const envOf = (home: string) => ({
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: socket,
    PI_CODING_AGENT_DIR: join(root, "agent"),
    TMPDIR: join(root, "tmp"),
    HOME: join(root, "home"),
  });
  const docket = (home: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: project, env: envOf(home), encoding: "utf8" });
    if (r.status !== 0) throw new Error(`docket ${args.join(" ")} failed: ${r.stderr}${r.stdout}`);
    return r.stdout;
  };
  const column = (home: string, worker: string, name: "heartbeat_at" | "deliverable_version"): unknown => {
    const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
    try {
      return (
        (db.prepare(`SELECT ${name} AS v FROM workers WHERE id = ?`).get(worker) as { v: unknown } | undefined)?.v ??
        null
      );
    } finally {
      db.close();
    }
  };
  const until = async (what: string, check: () => boolean, t0: number, timeoutMs = 120_000) => {
    while (!check()) {
      if (performance.now() - t0 > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return performance.now() - t0;
  };
  const beatCmd = 'exec "$DOCKET_NODE" "$DOCKET_BIN" worker heartbeat >/dev/null; sleep 60';
  async function toHeartbeat(home: string): Promise<number> {
    const t0 = performance.now();
    const { worker } = JSON.parse(docket(home, "spawn", "--json", "--agent", "command", "--cmd", beatCmd, "bench")) as {
      worker: string;
    };
    const ms = await until("heartbeat", () => column(home, worker, "heartbeat_at") !== null, t0);
    docket(home, "delete", worker, "--yes", "--force");
    return ms;
  }

  console.log(
    `machine: ${cpus().length} cpu, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const times = { contained: [] as number[], open: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    times.open.push(await toHeartbeat(homes.open)); // interleaved: both see the same load
    times.contained.push(await toHeartbeat(homes.contained));
  }
  const [c, o] = [median(times.contained), median(times.open)];
  console.log(
    `spawn → first heartbeat, command worker: contained median ${fmt(c)}, not contained ${fmt(o)} (+${fmt(c - o)}; aim ≤ +100 ms; ${RUNS} runs each)`,
  );
  figure({
    id: "contained-first-heartbeat",
    label: "spawn → first heartbeat of a contained command worker, median",
    value: c,
    unit: "ms",
    baseline: { label: "the same worker not contained", value: o },
  });

  const doneCmd =
    'echo x > f.txt; echo body | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary bench >/dev/null; sleep 60';
  const doneTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const { worker } = JSON.parse(
      docket(homes.contained, "spawn", "--json", "--agent", "command", "--cmd", doneCmd, "bench"),
    ) as { worker: string };
    doneTimes.push(await until("done", () => column(homes.contained, worker, "deliverable_version") !== null, t0));
    docket(homes.contained, "delete", worker, "--yes", "--force");
  }
  console.log(
    `spawn → contained \`worker done\` recorded (frozen change set): median ${fmt(median(doneTimes))} (3 runs)`,
  );
  figure({
    id: "contained-done",
    label: "spawn → a contained worker's `done` recorded (frozen change set), median",
    value: median(doneTimes),
    unit: "ms",
  });

  const t0 = performance.now();
  const spawns = await Promise.all(
    Array.from(
      { length: BURST },
      (_, i) =>
        new Promise<string>((done, fail) => {
          const child = spawn(
            process.execPath,
            [BIN, "spawn", "--json", "--agent", "command", "--cmd", beatCmd, `burst ${i}`],
            { cwd: project, env: envOf(homes.contained), stdio: ["ignore", "pipe", "pipe"] },
          );
          let out = "";
          child.stdout.on("data", (d) => (out += d));
          child.on("close", (code) =>
            code === 0
              ? done((JSON.parse(out) as { worker: string }).worker)
              : fail(new Error(`spawn ${i} exited ${code}`)),
          );
        }),
    ),
  );
  const burstMs = await until(
    "burst heartbeats",
    () => spawns.every((w) => column(homes.contained, w, "heartbeat_at") !== null),
    t0,
    300_000,
  );
  console.log(`${BURST} contained workers started at once: all ${spawns.length} started and beat in ${fmt(burstMs)}`);
  figure({
    id: "contained-burst",
    label: `${BURST} contained workers started at once, until all beat`,
    value: burstMs,
    unit: "ms",
  });
  for (const w of spawns) docket(homes.contained, "delete", w, "--yes", "--force");
} finally {
  spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  rmSync(root, { recursive: true, force: true });
}

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
