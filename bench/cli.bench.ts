// Benchmark: CLI start-up as whole processes beside `node -e 0` in the same rounds (`--version`, `--help`, the worker calls
// `heartbeat` and `report`, `ls --json` over 100 workers, a bare SQLite write) and the modules each loads; each docket
// command also as a build from before, given DOCKET_BENCH_BIN_BEFORE=<bin/docket.js>. Never asserts.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { openEngine } from "../src/engine/open.js";
import { insertBinding } from "../src/ledger/work/bindings.js";
import { insertDispatch } from "../src/ledger/work/dispatch.js";
import { insertItem } from "../src/ledger/work/items.js";
import { insertObligation } from "../src/ledger/work/obligations.js";
import { insertMessage } from "../src/ledger/talk/messages.js";
import { insertWorker, updateWorker } from "../src/ledger/workers/workers.js";
import { countModules, printFigures, timeProcesses, type ProcessCase } from "./support/processes.js";
import { gitRepo } from "../test/support/git.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const BEFORE = process.env.DOCKET_BENCH_BIN_BEFORE;
const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 21);
const WORKERS = 100;
const TOKEN = "bench-run-token";

const root = mkdtempSync(join(tmpdir(), "docket-bench-cli-"));
try {
  const project = join(root, "project");
  mkdirSync(project);
  gitRepo(project, { "README.md": "bench\n" });
  const home = join(root, "docket");

  // 100 workers of this project; the first is a live command worker with a directory (as spawn leaves it) and one
  // dispatched item per round for `worker report`.
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: project });
  const items = ctx.commands.run("bench.fleet", {}, (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < WORKERS; i++) {
      ids.push(
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
          runToken: i === 0 ? TOKEN : `t${i}`,
        }),
      );
    }
    const worker = ids[0]!;
    updateWorker(tx, worker, { state: "active" });
    const dispatch = insertDispatch(tx, worker, 1);
    const out: string[] = [];
    for (let r = 0; r < 2 * ROUNDS + 2; r++) {
      const item = insertItem(tx, "todo", `bench item ${r}`);
      const binding = insertBinding(tx, { dispatch, item: item.id, worker, generation: 1, acceptedRevision: 1 });
      insertObligation(tx, { binding, item: item.id, worker, dueAt: tx.now });
      out.push(item.id);
    }
    insertMessage(tx, { worker, kind: "work", body: "bench", dispatch });
    return out;
  }).result;
  mkdirSync(ctx.home.workerDir("w1"), { recursive: true });
  ctx.close();

  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, DOCKET_HOME: home };
  const workerEnv = { ...env, DOCKET_WORKER_ID: "w1", DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: TOKEN };
  const at = { cwd: project, env };
  const asWorker = { cwd: project, env: workerEnv };
  const docket = (...args: string[]) => [process.execPath, BIN, ...args];
  const report = (round: number, bin = BIN) => [
    process.execPath,
    bin,
    ...["worker", "report", "--item", items[round]!, "--outcome", "done", "--body", `finished ${items[round]}`],
  ];
  // The floor of any command that writes the ledger: node, better-sqlite3, the same pragmas, one UPDATE committed, closed.
  const sqlite = pathToFileURL(createRequire(import.meta.url).resolve("better-sqlite3")).href;
  const bareWrite = [
    process.execPath,
    "--input-type=module",
    "-e",
    [
      `const { default: Database } = await import(${JSON.stringify(sqlite)});`,
      `const db = new Database(${JSON.stringify(join(home, "ledger.sqlite"))});`,
      `db.pragma("busy_timeout = 10000"); db.pragma("journal_mode = WAL"); db.pragma("synchronous = NORMAL"); db.pragma("foreign_keys = ON");`,
      `db.exec("BEGIN IMMEDIATE"); db.prepare("UPDATE workers SET heartbeat_at = ? WHERE id = 'w1'").run(new Date().toISOString()); db.exec("COMMIT"); db.close();`,
    ].join(" "),
  ];

  console.log(
    `machine: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${ROUNDS} rounds, commands interleaved`,
  );
  const cases: ProcessCase[] = [
    { label: "node -e 0", argv: [process.execPath, "-e", "0"], options: at },
    { label: "docket --version", argv: docket("--version"), options: at },
    { label: "docket --help", argv: docket("--help"), options: at },
    { label: "bare ledger write (floor)", argv: bareWrite, options: at },
    { label: "docket worker heartbeat", argv: docket("worker", "heartbeat"), options: asWorker },
    { label: "docket worker report", argv: report(0), options: asWorker, before: (r) => report(r) },
    { label: `docket ls --json (${WORKERS} workers)`, argv: docket("ls", "--json"), options: at },
  ];
  // The same commands from the build before, each round beside the others; a report takes the next round's item.
  const before = (c: ProcessCase): ProcessCase => ({
    ...c,
    label: `${c.label} (before)`,
    argv: [c.argv[0]!, BEFORE!, ...c.argv.slice(2)],
    ...(c.before ? { before: (r: number) => report(ROUNDS + 1 + r, BEFORE) } : {}),
  });
  if (BEFORE) cases.push(...cases.filter((c) => c.label.startsWith("docket")).map(before));
  printFigures(timeProcesses(cases, ROUNDS), {
    "docket --version": 1.3,
    "docket worker heartbeat": 1.35,
    "docket worker report": 1.35,
    [`docket ls --json (${WORKERS} workers)`]: 1.6,
  });

  console.log("modules loaded (ES modules + CommonJS files, node's own excluded):");
  for (const c of cases.slice(1).filter((x) => x.label.startsWith("docket") && !x.label.endsWith("(before)"))) {
    const args = (c.label === "docket worker report" ? report(ROUNDS) : c.argv).slice(1);
    const n = countModules(args, c.options as { cwd: string; env: NodeJS.ProcessEnv });
    console.log(`  ${c.label.padEnd(32)} ${String(n.esm).padStart(3)} ESM + ${String(n.cjs).padStart(2)} CJS`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
