// Benchmark: what a worker's own huge session file costs a view. One pi worker whose session file holds
// 30 MB of junk on one line, then a usage line: one spend read of it as views now read it (at most RECORD_READ_BYTES),
// beside a whole-file read (as views read it before the cap) in the same run, and `ls` / `verdict` of an unrelated
// worker through the real CLI. DOCKET_BENCH_CAPS_MB (default 30) sizes it. Never asserts; prints figures.

import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { readAppended, RECORD_READ_BYTES } from "../src/files/workers/agent-records.js";
import { insertWorker } from "../src/ledger/workers/workers.js";
import { figure } from "./support/figure.js";
import { recordGround } from "./support/record-ground.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const MB = Number(process.env.DOCKET_BENCH_CAPS_MB ?? 30);

const ground = recordGround("caps");
try {
  const { home, repo, env, ctx } = ground;
  const ids = [0, 1].map(
    (i) =>
      ctx.commands.run("bench.worker", { i }, (tx) => {
        const id = insertWorker(tx, {
          task: `worker ${i}`,
          kind: "scout",
          agent: "pi",
          execution: {},
          cwd: repo,
          projectRoot: repo,
          workspace: () => repo,
          workspaceMode: "shared",
          runToken: `t${i}`,
        });
        tx.db.prepare("UPDATE workers SET state = 'active' WHERE id = ?").run(id);
        return id;
      }).result,
  );
  ctx.close();
  const time = (label: string, args: string[]) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: repo, env, encoding: "utf8" });
    const ms = performance.now() - t0;
    if (r.status !== 0) console.log(`  ${label}: exit ${r.status}: ${r.stderr.trim().slice(0, 300)}`);
    console.log(`  ${label.padEnd(52)} ${ms.toFixed(0).padStart(8)} ms`);
    return ms;
  };
  const bare = time("ls, no session file yet (baseline)", ["ls", "--json"]);
  const dir = join(home, "fleet", ids[0]!, "session");
  mkdirSync(dir, { recursive: true });
  const session = join(dir, "s.jsonl");
  const fd = openSync(session, "w");
  const mib = Buffer.alloc(1024 * 1024, "x");
  for (let i = 0; i < MB; i++) writeSync(fd, mib);
  writeSync(
    fd,
    `\n${JSON.stringify({ type: "message", timestamp: "2026-12-01T10:00:00.000Z", message: { role: "assistant", provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 7, output: 11, cacheRead: 0, cacheWrite: 0 } } })}\n`,
  );
  closeSync(fd);

  const inProcess = (label: string, budget: number) => {
    const heap0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const got = readAppended(session, 0, undefined, budget);
    const ms = performance.now() - t0;
    const mb = (process.memoryUsage().rss - heap0) / (1024 * 1024);
    console.log(
      `  ${label.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms  ${String(got?.offset ?? 0).padStart(10)} bytes  +${mb.toFixed(0)} MB rss`,
    );
    return ms;
  };
  console.log(`one pi worker, a session file of ${MB} MB (one junk line, then a usage line)`);
  const whole = inProcess("one read of it, whole (as before the cap)", Number.MAX_SAFE_INTEGER);
  const capped = inProcess(
    `one read of it, capped (${RECORD_READ_BYTES / (1024 * 1024)} MiB, as views now read)`,
    RECORD_READ_BYTES,
  );
  figure({
    id: "caps.session-read",
    label: `one spend read of a worker's ${MB} MB session file (capped)`,
    value: capped,
    unit: "ms",
    baseline: { label: "the whole file, as before the cap", value: whole },
  });

  const ls = time("ls, the session unread (first view)", ["ls", "--json"]);
  figure({
    id: "caps.ls-huge-session",
    label: `ls with one worker's ${MB} MB session file unread`,
    value: ls,
    unit: "ms",
    baseline: { label: "ls before the file existed", value: bare },
  });
  time(`show ${ids[1]} (an unrelated worker)`, ["show", ids[1]!, "--json"]);
} finally {
  ground.remove();
}
