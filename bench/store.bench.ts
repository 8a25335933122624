// Benchmark: the DeliverableStore — listing 10,000 records from the ledger index (in-process and `docket deliverables
// --json`) beside a bare walk that reads and parses the same files; 1,000 `--author` saves beside bare and durable writes.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { openEngine } from "../src/engine/open.js";
import { listStoredDeliverables, reindexStore } from "../src/engine/store/catalog.js";
import { saveAuthored } from "../src/engine/store/save.js";
import { claimFile } from "../src/files/atomic.js";
import type { StoredDeliverable } from "../src/domain/store/stored-deliverable.js";
import { storedRef } from "../src/domain/deliverables/refs.js";
import { figure } from "./support/figure.js";

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../bin/docket.js");
const N = 10_000;
const SAVES = 1_000;

function median(runs: number[]): number {
  const s = [...runs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeRuns(times: number, fn: () => unknown): number {
  fn(); // warm-up
  const runs: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return median(runs);
}

function record(i: number): StoredDeliverable {
  const id = `human-20261130${String(i).padStart(9, "0")}-${((i * 2654435761) % 2 ** 48).toString(16).padStart(12, "0")}`;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    schemaVersion: 2,
    id,
    version: 1,
    ref: storedRef(id, 1),
    createdAt: at,
    savedAt: at,
    body: `# Record ${i}\n\n${"Some findings about the system under study. ".repeat(40)}\n`,
    summary: `Record ${i}`,
    outcome: "findings",
    evidence: [],
    recommendations: [],
    refs: [],
    items: [],
    changeSet: null,
    source: { kind: "human", createdAt: at },
    reviewNotes: [],
    approval: { kind: "human", decisionId: `human-authorship:${id}`, decidedAt: at, reason: "human-authorship" },
    handoffProvenance: null,
  };
}

function bareWalk(root: string): number {
  let n = 0;
  for (const id of readdirSync(root)) {
    for (const f of readdirSync(join(root, id))) {
      const r = JSON.parse(readFileSync(join(root, id, f), "utf8")) as { summary: string };
      if (r.summary) n++;
    }
  }
  return n;
}

const home = mkdtempSync(join(tmpdir(), "docket-bench-store-"));
try {
  const store = join(home, "deliverables");
  for (let i = 0; i < N; i++) {
    const r = record(i);
    mkdirSync(join(store, r.id), { recursive: true });
    writeFileSync(join(store, r.id, "v1.json"), `${JSON.stringify(r, null, 2)}\n`);
  }
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: home });
  const t0 = performance.now();
  const rebuilt = reindexStore(ctx);
  const reindexMs = performance.now() - t0;
  console.log(`list ${N.toLocaleString("en-US")} stored records (${rebuilt.records} indexed)`);
  console.log(`  rebuild index from files (once)          ${reindexMs.toFixed(1).padStart(8)} ms`);
  const walk = timeRuns(5, () => bareWalk(store));
  const inProcess = timeRuns(10, () => listStoredDeliverables(ctx).deliverables.length);
  ctx.close();
  const env = { ...process.env, DOCKET_HOME: home };
  const cli = timeRuns(5, () =>
    spawnSync(process.execPath, [BIN, "deliverables", "--json"], {
      env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
  const nodeStart = timeRuns(5, () => spawnSync(process.execPath, ["-e", ""], { env }));
  console.log(`  bare sync walk: readdir + read + parse   ${walk.toFixed(1).padStart(8)} ms`);
  console.log(
    `  listStoredDeliverables (index, warm)     ${inProcess.toFixed(1).padStart(8)} ms   ×${(inProcess / walk).toFixed(3)} of the walk`,
  );
  figure({
    id: "store-list",
    label: `list the DeliverableStore, ${N.toLocaleString("en-US")} records (ledger index)`,
    value: inProcess,
    unit: "ms",
    baseline: { label: "read + parse every file", value: walk },
  });
  console.log(
    `  \`docket deliverables --json\` process     ${cli.toFixed(1).padStart(8)} ms   (bare \`node -e ""\` start ${nodeStart.toFixed(1)} ms)`,
  );

  // 1,000 human-authored saves, one engine, beside mkdir + writeFile of the same bytes.
  const saveHome = join(home, "saves");
  mkdirSync(saveHome);
  const sctx = openEngine({ env: { DOCKET_HOME: saveHome }, cwd: saveHome });
  const bodyPath = join(saveHome, "body.md");
  writeFileSync(bodyPath, record(1).body);
  const saveRuns: number[] = [];
  for (let i = 0; i < SAVES; i++) {
    const s0 = performance.now();
    saveAuthored(sctx, { bodyFile: bodyPath, outcome: "findings" });
    saveRuns.push(performance.now() - s0);
  }
  sctx.close();
  const bareRuns: number[] = [];
  const bareRoot = join(home, "bare");
  for (let i = 0; i < SAVES; i++) {
    const s0 = performance.now();
    mkdirSync(join(bareRoot, `r${i}`), { recursive: true });
    writeFileSync(join(bareRoot, `r${i}`, "v1.json"), JSON.stringify(record(i), null, 2));
    bareRuns.push(performance.now() - s0);
  }
  const claimRuns: number[] = [];
  for (let i = 0; i < SAVES; i++) {
    const s0 = performance.now();
    claimFile(join(bareRoot, `c${i}`, "v1.json"), JSON.stringify(record(i), null, 2));
    claimRuns.push(performance.now() - s0);
  }
  console.log(`${SAVES.toLocaleString("en-US")} --author saves`);
  console.log(`  saveAuthored (lock, fsync'd claim, index) median ${median(saveRuns).toFixed(3)} ms`);
  console.log(`  mkdir + writeFile (no fsync)              median ${median(bareRuns).toFixed(3)} ms`);
  figure({
    id: "store-save",
    label: "save one human-authored stored deliverable (fsync'd), median",
    value: median(saveRuns),
    unit: "ms",
    baseline: { label: "durable claim", value: median(claimRuns) },
  });
  console.log(`  bare durable claim (temp+fsync+link+fsync dir) median ${median(claimRuns).toFixed(3)} ms`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
