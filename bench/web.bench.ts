// Benchmark: the review page — server time to render a card with a 2,000- and a 10,000-line patch beside
// reading the sidecar and JSON.parse; a worker's done commit → the event at an open page (p50/p95) beside a tight
// data_version poll; the server's memory with 100 workers and 10,000 stored deliverables beside a bare engine process.

import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openEngine } from "../src/engine/open.js";
import { reviewView } from "../src/engine/review/review-view.js";
import { reindexStore } from "../src/engine/store/catalog.js";
import type { StoredDeliverable } from "../src/domain/store/stored-deliverable.js";
import { storedRef } from "../src/domain/deliverables/refs.js";
import { deliverablePath } from "../src/files/workers/deliverables.js";
import { renderCard } from "../src/surfaces/web/pages/card.js";
import { renderFileRows } from "../src/surfaces/web/pages/diff.js";
import { browser } from "../test/support/browser.js";
import { DOCKET_BIN, cliEnv } from "../test/support/docket-cli.js";
import { publish, reviewGround, reviewWorker } from "../test/support/review-fixture.js";
import { publishVersion } from "../test/support/stored.js";
import { addWorker } from "../test/support/work-ledger.js";
import { signedIn, webServer } from "../test/support/web.js";
import { figure } from "./support/figure.js";

const cleanups: (() => void | Promise<void>)[] = [];
const t = { after: (fn: () => void | Promise<void>) => void cleanups.push(fn) };
const RUNS = Number(process.env.DOCKET_BENCH_RUNS ?? 20);

const pct = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const ms = (x: number): string => `${x.toFixed(1).padStart(8)} ms`;

function timed(n: number, fn: () => unknown): number[] {
  fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Waits out the parent-change cache's racy window (parent-cache.ts), as a human's checkout is when they look: its files
 * were written seconds ago, not within the same clock tick as the look.
 */
const settle = (): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_100);

/** `files` TypeScript files whose lines all change: `files × lines` added and as many removed. */
function bigChange(files: number, lines: number): { before: Record<string, string>; after: Record<string, string> } {
  const before: Record<string, string> = {};
  const after: Record<string, string> = {};
  for (let f = 0; f < files; f++) {
    before[`src/mod${f}.ts`] = `${Array.from({ length: lines }, (_, i) => `export const v${i} = ${i};`).join("\n")}\n`;
    after[`src/mod${f}.ts`] =
      `${Array.from({ length: lines }, (_, i) => `export const v${i} = ${i * 2}; // doubled`).join("\n")}\n`;
  }
  return { before, after };
}

async function cardRender(files: number, lines: number): Promise<void> {
  const { before, after } = bigChange(files, lines);
  const g = reviewGround(t, { ...before, "README.md": "hello\n" });
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, after);
  const sidecar = deliverablePath(g.ctx.home, w.worker, 1);
  const web = await webServer(t, g);
  const cookie = (await fetch(web.login, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0]!;
  const n = lines * files >= 10_000 ? Math.max(5, RUNS / 2) : RUNS;
  settle();
  const parse = timed(n, () => JSON.parse(readFileSync(sidecar, "utf8")));
  const view = timed(n, () => reviewView(web.ctx, v1.ref));
  const page = timed(n, () => renderCard(reviewView(web.ctx, v1.ref), "unified"));
  const files0 = reviewView(web.ctx, v1.ref).files;
  const rows = timed(n, () => files0.map((f) => renderFileRows(f, "/card/w1/v/1", "unified")).join(""));
  const http: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await (await fetch(`${web.origin}/card/${w.worker}/v/1`, { headers: { cookie } })).text();
    http.push(performance.now() - t0);
  }
  const frag: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await (await fetch(`${web.origin}/card/${w.worker}/v/1/file/0`, { headers: { cookie } })).text();
    frag.push(performance.now() - t0);
  }
  console.log(
    `\ncard with a ${(files * lines * 2).toLocaleString("en-US")}-line patch (${files} file${files === 1 ? "" : "s"} × ${lines} lines changed), p50 of ${n}`,
  );
  console.log(`  baseline: read the sidecar + JSON.parse    ${ms(pct(parse, 0.5))}`);
  console.log(
    `  reviewView (card, actions, file heads)    ${ms(pct(view, 0.5))}   ×${(pct(view, 0.5) / pct(parse, 0.5)).toFixed(1)}`,
  );
  console.log(`  + card HTML (large files collapsed)       ${ms(pct(page, 0.5))}`);
  console.log(`  every file's rows, highlighted            ${ms(pct(rows, 0.5))}`);
  console.log(`  GET /card over loopback                   ${ms(pct(http, 0.5))}`);
  console.log(`  GET one file fragment (${lines} lines ×2)    ${ms(pct(frag, 0.5))}`);
}

async function doneToPage(): Promise<void> {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const web = await webServer(t, g);
  const context = await browser(t);
  const page = await signedIn(context, web);
  await page.evaluate((worker) => {
    const seen: { at: number; v: number | null }[] = [];
    (window as unknown as { seen: typeof seen }).seen = seen;
    new EventSource("/events").addEventListener("pulse", (e) =>
      seen.push({ at: Date.now(), v: JSON.parse((e as MessageEvent).data).workers[worker]?.v ?? null }),
    );
  }, w.worker);
  const poller = openEngine({ env: { DOCKET_HOME: g.home }, cwd: g.project });
  const env = cliEnv({
    DOCKET_HOME: g.home,
    HOME: g.home,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: "1",
    DOCKET_RUN_TOKEN: w.runToken,
  });
  const toPage: number[] = [];
  const toPoll: number[] = [];
  for (let v = 1; v <= RUNS; v++) {
    writeFileSync(join(w.workspace, "src/app.txt"), `version ${v}\n`);
    const child = spawn(
      process.execPath,
      [DOCKET_BIN, "worker", "done", "--outcome", "completed", "--summary", `v${v}`],
      { cwd: w.workspace, env, stdio: ["pipe", "ignore", "ignore"] },
    );
    const exited = new Promise((r) => child.on("exit", r));
    child.stdin.end("done\n");
    // The baseline: a reader on its own connection polling data_version every millisecond.
    const start = poller.db.pragma("data_version", { simple: true });
    let polled = 0;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (poller.db.pragma("data_version", { simple: true }) !== start) {
        const row = poller.db.prepare("SELECT deliverable_version AS v FROM workers WHERE id = ?").get(w.worker) as {
          v: number | null;
        };
        if (row.v === v) {
          polled = Date.now();
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    const committed = Date.parse(
      (poller.db.prepare("SELECT updated_at AS u FROM workers WHERE id = ?").get(w.worker) as { u: string }).u,
    );
    const at = await page.waitForFunction(
      (n) => (window as unknown as { seen: { at: number; v: number | null }[] }).seen.find((s) => s.v === n)?.at,
      v,
      { timeout: 30_000 },
    );
    toPage.push(Number(await at.jsonValue()) - committed);
    toPoll.push(polled - committed);
    await exited;
  }
  poller.close();
  console.log(
    `\na worker's done (\`docket worker done\` in another process) → the event at an open page, ${RUNS} runs`,
  );
  console.log(
    `  baseline: a 1 ms data_version poll sees the commit  p50 ${ms(pct(toPoll, 0.5))}  p95 ${ms(pct(toPoll, 0.95))}`,
  );
  console.log(
    `  the page's EventSource receives the pulse           p50 ${ms(pct(toPage, 0.5))}  p95 ${ms(pct(toPage, 0.95))}`,
  );
  figure({
    id: "web-event",
    label: "a worker's done in another process → an open page's event stream, p50",
    value: pct(toPage, 0.5),
    unit: "ms",
    baseline: { label: "a 1 ms `data_version` poll", value: pct(toPoll, 0.5) },
  });
}

function storedRecord(i: number): StoredDeliverable {
  const id = `human-20261201${String(i).padStart(9, "0")}-${((i * 2654435761) % 2 ** 48).toString(16).padStart(12, "0")}`;
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    schemaVersion: 2,
    id,
    version: 1,
    ref: storedRef(id, 1),
    createdAt: at,
    savedAt: at,
    body: `# Record ${i}\n\nFindings.\n`,
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

const rssKb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

async function memory(): Promise<void> {
  const g = reviewGround(t);
  const ctx = openEngine({ env: { DOCKET_HOME: g.home }, cwd: g.project });
  for (let i = 0; i < 100; i++) publishVersion(ctx, addWorker(ctx, `token-${i}`).worker, 1);
  for (let i = 0; i < 10_000; i++) {
    const r = storedRecord(i);
    mkdirSync(join(g.home, "deliverables", r.id), { recursive: true });
    writeFileSync(join(g.home, "deliverables", r.id, "v1.json"), `${JSON.stringify(r)}\n`);
  }
  reindexStore(ctx);
  ctx.close();
  const env = { ...process.env, DOCKET_HOME: g.home, DOCKET_TMUX_SOCKET: `docket-bench-${process.pid}` };
  const server = spawn(process.execPath, [DOCKET_BIN.replace(/docket\.js$/, "docket-web.js"), "--json"], {
    cwd: g.project,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((r) =>
    server.stdout.once("data", (b: Buffer) => r(JSON.parse(b.toString()).url)),
  );
  const origin = new URL(url).origin;
  const idle = rssKb(server.pid!);
  const cookie = (await fetch(url, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0]!;
  for (const path of ["/", "/fleet?all=1", "/store", "/log", "/", "/store"])
    await (await fetch(`${origin}${path}`, { headers: { cookie } })).text();
  const busy = rssKb(server.pid!);
  server.kill("SIGTERM");
  const bare = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 500));
  const bareKb = rssKb(bare.pid!);
  bare.kill();
  console.log(`\nserver memory with 100 workers and 10,000 stored deliverables (RSS)`);
  console.log(`  baseline: bare node                 ${(bareKb / 1024).toFixed(1).padStart(7)} MiB`);
  console.log(`  docket-web listening                ${(idle / 1024).toFixed(1).padStart(7)} MiB`);
  console.log(`  after queue, fleet, store, log      ${(busy / 1024).toFixed(1).padStart(7)} MiB`);
}

try {
  console.log("web benchmark (issue 13): every figure beside a baseline measured in the same run");
  const only = process.env.DOCKET_BENCH_ONLY;
  if (!only || only === "card") {
    await cardRender(4, 250);
    await cardRender(1, 5_000);
  }
  if (!only || only === "live") await doneToPage();
  if (!only || only === "memory") await memory();
} finally {
  for (const fn of cleanups.reverse()) await fn();
}
