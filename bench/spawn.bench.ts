// Benchmark: `docket spawn` → the worker's first heartbeat in the ledger, for a command agent and a real pi worker
// (the shipped scripted model), in tmux on a private socket; then `docket ls --json` with 100 workers beside `docket --version`.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { openEngine } from "../src/engine/open.js";
import { insertWorker } from "../src/ledger/workers/workers.js";
import { gitRepo } from "../test/support/git.js";
import { figure } from "./support/figure.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const COMMAND_RUNS = 5;
const PI_RUNS = 3;
const CLI_RUNS = 9;
/** Workers start as a user's do: contained where bubblewrap works (the containment bench compares it with off). */
const SANDBOX = "default sandbox";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

const root = mkdtempSync(join(tmpdir(), "docket-bench-spawn-"));
const socket = `docket-bench-${randomBytes(6).toString("hex")}`;
try {
  const project = join(root, "project");
  mkdirSync(project);
  gitRepo(project, { "README.md": "bench\n" });
  const home = join(root, "docket");
  const agentDir = join(root, "agent");
  for (const d of [home, agentDir, join(root, "tmp"), join(root, "home")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1" }));
  writeFileSync(join(home, "config.json"), JSON.stringify({ maxActive: 0 }));
  const script = join(root, "script.json");
  writeFileSync(script, JSON.stringify([{ text: "ready" }]));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: socket,
    PI_CODING_AGENT_DIR: agentDir,
    TMPDIR: join(root, "tmp"),
    HOME: join(root, "home"),
    PI_OFFLINE: "1",
    DOCKET_PI_ARGS: "-ne -ns -np -nc --no-themes",
  };
  const docket = (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: project, env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`docket ${args.join(" ")} failed: ${r.stderr}${r.stdout}`);
    return r.stdout;
  };
  const heartbeatOf = (worker: string): string | null => {
    const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
    try {
      return (
        (
          db.prepare("SELECT heartbeat_at FROM workers WHERE id = ?").get(worker) as
            | { heartbeat_at: string | null }
            | undefined
        )?.heartbeat_at ?? null
      );
    } finally {
      db.close();
    }
  };
  async function spawnToHeartbeat(args: string[], timeoutMs: number): Promise<{ spawnMs: number; beatMs: number }> {
    const t0 = performance.now();
    const out = JSON.parse(docket("spawn", "--json", ...args)) as { worker: string };
    const spawnMs = performance.now() - t0;
    for (;;) {
      if (heartbeatOf(out.worker)) break;
      if (performance.now() - t0 > timeoutMs) throw new Error(`${out.worker}: no heartbeat within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const beatMs = performance.now() - t0;
    docket("delete", out.worker, "--yes", "--force");
    return { spawnMs, beatMs };
  }

  console.log(
    `machine: ${cpus().length} cpu, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const beatCmd = 'exec "$DOCKET_NODE" "$DOCKET_BIN" worker heartbeat >/dev/null; sleep 60';
  for (const [id, label, args, runs] of [
    [
      "spawn-command-isolated",
      "command agent (isolated worktree)",
      ["--agent", "command", "--cmd", beatCmd, "bench"],
      COMMAND_RUNS,
    ],
    [
      "spawn-command-shared",
      "command agent (shared, scout)",
      ["--agent", "command", "--as", "scout", "--cmd", beatCmd, "bench"],
      COMMAND_RUNS,
    ],
    // The shipped scripted model (`spawn --scripted`): its steps file is the one a contained worker is shown.
    ["spawn-pi", "pi worker (scripted model, scout)", ["--scripted", script, "--as", "scout", "bench"], PI_RUNS],
  ] as const) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await spawnToHeartbeat([...args], 120_000));
    console.log(
      `spawn → first heartbeat, ${label}: median ${fmt(median(results.map((r) => r.beatMs)))} (docket spawn itself ${fmt(median(results.map((r) => r.spawnMs)))}; ${runs} runs: ${results.map((r) => `${fmt(r.spawnMs)}+${fmt(r.beatMs - r.spawnMs)}`).join(", ")})`,
    );
    figure({
      id: `${id}-returns`,
      label: `\`docket spawn\` returns, ${label}, ${SANDBOX}, median of ${runs}`,
      value: median(results.map((r) => r.spawnMs)),
      unit: "ms",
    });
    figure({
      id,
      label: `\`docket spawn\` → first heartbeat in the ledger, ${label}, ${SANDBOX}, median of ${runs}`,
      value: median(results.map((r) => r.beatMs)),
      unit: "ms",
    });
  }

  const listHome = join(root, "docket-100");
  const ctx = openEngine({ env: { DOCKET_HOME: listHome }, cwd: project });
  ctx.commands.run("bench.workers", {}, (tx) => {
    for (let i = 0; i < 100; i++) {
      insertWorker(tx, {
        task: `bench worker ${i}`,
        kind: "default",
        agent: "command",
        command: "true",
        execution: {
          agent: "command",
          kind: "default",
          model: null,
          thinking: "off",
          context: "fresh",
          workspace: "shared",
          piArgs: [],
          subdir: "",
        },
        cwd: project,
        projectRoot: project,
        workspace: () => project,
        workspaceMode: "shared",
        runToken: `t${i}`,
      });
    }
  });
  ctx.close();
  const timeCli = (args: string[]) => {
    const times: number[] = [];
    for (let i = 0; i < CLI_RUNS; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [BIN, ...args], {
        cwd: project,
        env: { ...env, DOCKET_HOME: listHome },
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(r.stderr);
      times.push(performance.now() - t0);
    }
    return median(times);
  };
  const version = timeCli(["--version"]);
  const ls = timeCli(["ls", "--json"]);
  console.log(
    `docket --version: median ${fmt(version)}; docket ls --json with 100 workers: median ${fmt(ls)} (${(ls / version).toFixed(2)}× --version; ${CLI_RUNS} runs each)`,
  );
  figure({
    id: "spawn-ls-100",
    label: `\`docket ls --json\`, 100 workers, median of ${CLI_RUNS}`,
    value: ls,
    unit: "ms",
    baseline: { label: "`docket --version`", value: version },
  });
} finally {
  try {
    execFileSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  } catch {
    // no server left on the bench socket
  }
  rmSync(root, { recursive: true, force: true });
}
