// Benchmark: one docket_done (call → frozen version) through its three doors on the same repo and run — MCP
// (`docket mcp`, SDK client), `docket worker done` (CLI) and the pi tool (in-process) — then spawn → first heartbeat
// for Claude Code and Codex beside pi, each against a scripted model on 127.0.0.1 in tmux on a private socket.

import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { openEngine } from "../src/engine/open.js";
import { registerWorkerTools } from "../src/surfaces/pi/worker/tools.js";
import { doorOf } from "../src/surfaces/shared/door-client.js";
import { isolatedWorker } from "../test/support/protocol-worker.js";
import { startFakeAnthropic } from "../test/support/fake-anthropic.js";
import { startFakeOpenAI } from "../test/support/fake-openai.js";
import { figure } from "./support/figure.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const FAUX = resolve(here, "..", "..", "test", "support", "faux-provider.ts");
const DONE_RUNS = 10;
const SPAWN_RUNS = 2;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const root = mkdtempSync(join(tmpdir(), "docket-bench-agents-"));
const cleanups: (() => void | Promise<void>)[] = [];
const t = { after: (fn: () => void | Promise<void>) => void cleanups.push(fn) };
try {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await doneDoors();
  await spawnToHeartbeat();
} finally {
  for (const fn of cleanups.reverse()) await fn();
  rmSync(root, { recursive: true, force: true });
}

async function doneDoors(): Promise<void> {
  const home = join(root, "done-home");
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: root });
  t.after(() => ctx.close());
  const w = isolatedWorker(t, ctx);
  writeFileSync(join(w.workspace, "src", "app.txt"), "one\nTWO\nthree\n");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: root,
    DOCKET_HOME: home,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  };

  const client = new Client({ name: "claude-code", version: "bench" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp"],
      env,
      cwd: w.workspace,
      stderr: "ignore",
    }),
  );
  t.after(() => client.close());
  const mcp: number[] = [];
  for (let i = 0; i < DONE_RUNS; i++) {
    const start = performance.now();
    const r = await client.callTool({
      name: "docket_done",
      arguments: { body: `body ${i}`, outcome: "completed", summary: "s" },
      _meta: { "claudecode/toolUseId": `mcp-${i}` },
    });
    mcp.push(performance.now() - start);
    if (r.isError) throw new Error(JSON.stringify(r.content));
  }

  const cli: number[] = [];
  for (let i = 0; i < DONE_RUNS; i++) {
    const start = performance.now();
    const r = spawnSync(
      process.execPath,
      [BIN, "worker", "done", "--outcome", "completed", "--summary", "s", "--call-id", `cli-${i}`],
      { cwd: w.workspace, env, input: `body ${i}`, encoding: "utf8" },
    );
    cli.push(performance.now() - start);
    if (r.status !== 0) throw new Error(r.stderr);
  }

  // The pi tool's own execute, in-process as pi runs it (the message that holds the call is announced first).
  const tools = new Map<string, { execute: (...args: unknown[]) => Promise<unknown> }>();
  const handlers = new Map<string, (event: unknown) => void>();
  const pi = {
    registerTool: (tool: { name: string; execute: (...args: unknown[]) => Promise<unknown> }) =>
      tools.set(tool.name, tool),
    on: (name: string, fn: (event: unknown) => void) => handlers.set(name, fn),
  };
  registerWorkerTools(pi as unknown as ExtensionAPI, doorOf(env));
  const piTool: number[] = [];
  for (let i = 0; i < DONE_RUNS; i++) {
    const id = `pi-${i}`;
    const start = performance.now();
    handlers.get("message_end")!({
      message: {
        role: "assistant",
        content: [
          { type: "text", text: `body ${i}` },
          { type: "toolCall", id, name: "docket_done" },
        ],
      },
    });
    await tools
      .get("docket_done")!
      .execute(id, { outcome: "completed", summary: "s" }, undefined, undefined, undefined);
    piTool.push(performance.now() - start);
  }
  console.log(`docket_done → frozen version (2-file repo, 1 changed file), median of ${DONE_RUNS}, same repo and run:`);
  console.log(`  MCP (docket mcp, SDK client over stdio)   ${fmt(median(mcp))}`);
  console.log(`  docket worker done (a CLI process)        ${fmt(median(cli))}`);
  console.log(`  pi tool (in the worker's own process)     ${fmt(median(piTool))}`);
  const inProcess = { label: "the pi tool in the worker's own process", value: median(piTool) };
  figure({
    id: "done-mcp",
    label: `\`docket_done\` → frozen version through \`docket mcp\` (SDK client over stdio), median of ${DONE_RUNS}`,
    value: median(mcp),
    unit: "ms",
    baseline: inProcess,
  });
  figure({
    id: "done-cli",
    label: `\`docket worker done\` → frozen version (a CLI process), median of ${DONE_RUNS}`,
    value: median(cli),
    unit: "ms",
    baseline: inProcess,
  });
}

async function spawnToHeartbeat(): Promise<void> {
  const project = join(root, "project");
  mkdirSync(project);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
  git("init", "-q", "-b", "main");
  git("-c", "user.email=b@example.invalid", "-c", "user.name=b", "commit", "-q", "--allow-empty", "-m", "initial");
  const anthropic = await startFakeAnthropic([]);
  const openai = await startFakeOpenAI([]);
  t.after(() => anthropic.close());
  t.after(() => openai.close());
  const agentDir = join(root, "agent");
  mkdirSync(agentDir);
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1" }));
  const script = join(root, "script.json");
  writeFileSync(script, JSON.stringify([{ text: "ready" }]));
  const runs: Record<string, number[]> = { pi: [], claude: [], codex: [] };
  for (let i = 0; i < SPAWN_RUNS; i++) {
    for (const agent of ["pi", "claude", "codex"] as const) {
      const home = join(root, `spawn-${agent}-${i}`);
      mkdirSync(home);
      const socket = `docket-bench-${randomBytes(6).toString("hex")}`;
      t.after(() => void spawnSync("tmux", ["-L", socket, "kill-server"]));
      writeFileSync(
        join(home, "config.json"),
        JSON.stringify({
          maxActive: 0,
          worker: { passEnv: ["PI_FAUX_SCRIPT"] },
          codex: {
            extraArgs: [
              "-c",
              'model_provider="scripted"',
              "-c",
              `model_providers.scripted={name="scripted",base_url="${openai.url}/v1",wire_api="responses",env_key="SCRIPTED_KEY"}`,
            ],
          },
        }),
      );
      const env = {
        // Uncontained: the scripted servers listen on 127.0.0.1 and the faux script is a file of this bench; the
        // containment bench measures what the sandbox adds.
        DOCKET_SANDBOX: "off",
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        DOCKET_HOME: home,
        DOCKET_TMUX_SOCKET: socket,
        HOME: join(root, "home"),
        TMPDIR: root,
        PI_CODING_AGENT_DIR: agentDir,
        PI_OFFLINE: "1",
        DOCKET_PI_ARGS: `-ne -ns -np -nc --no-themes -e ${FAUX}`,
        PI_FAUX_SCRIPT: script,
      };
      const extra =
        agent === "claude"
          ? ["--env", `ANTHROPIC_BASE_URL=${anthropic.url}`, "--env", "ANTHROPIC_API_KEY=sk-bench-0123456789abcdefghij"]
          : agent === "codex"
            ? ["--model", "scripted-model", "--env", "SCRIPTED_KEY=x"]
            : [];
      const start = performance.now();
      const r = spawnSync(process.execPath, [BIN, "spawn", "--agent", agent, ...extra, "--yes", "--json", "bench"], {
        cwd: project,
        env,
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`spawn ${agent}: ${r.stderr}${r.stdout}`);
      const deadline = Date.now() + 120_000;
      for (;;) {
        const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
        const beat = (
          db.prepare("SELECT heartbeat_at FROM workers WHERE id = 'w1'").get() as { heartbeat_at: string | null }
        ).heartbeat_at;
        db.close();
        if (beat) break;
        if (Date.now() > deadline) throw new Error(`${agent} never sent its first heartbeat`);
        await new Promise((r) => setTimeout(r, 20));
      }
      runs[agent]!.push(performance.now() - start);
      spawnSync("tmux", ["-L", socket, "kill-server"]);
    }
  }
  console.log(
    `docket spawn → first heartbeat in the ledger, median of ${SPAWN_RUNS} (scripted models, tmux, uncontained):`,
  );
  for (const [agent, xs] of Object.entries(runs))
    console.log(`  ${agent.padEnd(7)}${fmt(median(xs))}   (runs: ${xs.map((x) => x.toFixed(0)).join(", ")} ms)`);
  const pi = { label: "pi, same run", value: median(runs.pi!) };
  for (const [agent, name] of [
    ["claude", "Claude Code"],
    ["codex", "Codex"],
  ] as const) {
    figure({
      id: `spawn-${agent}`,
      label: `\`docket spawn\` → first heartbeat, ${name} (scripted model, uncontained), median of ${SPAWN_RUNS}`,
      value: median(runs[agent]!),
      unit: "ms",
      baseline: pi,
    });
  }
}
