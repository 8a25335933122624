// Benchmark: the verdict queue (23 cards of a 100-worker project: real worktrees, sidecars published through `done`) in
// process with the git processes it starts (a first look, and a second one with nothing moved), and as
// `docket verdict --json` beside `node -e 0` (and beside a build from before, given DOCKET_BENCH_BIN_BEFORE=<bin/docket.js>).
// DOCKET_BENCH_KEEP=1 keeps the fixture and prints how to run the verdict against it (for profiling). Never asserts.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openEngine } from "../src/engine/open.js";
import { done, fail, wait } from "../src/engine/protocol/protocol.js";
import { approve, reject } from "../src/engine/review/judge.js";
import { verdictQueue } from "../src/engine/review/verdict.js";
import { gitRepo } from "../test/support/git.js";
import { insertShellWorker } from "../test/support/work-ledger.js";
import { isolatedWorker, type ProtocolWorker } from "../test/support/protocol-worker.js";
import { printFigures, timeProcesses } from "./support/processes.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const BEFORE = process.env.DOCKET_BENCH_BIN_BEFORE;
const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 11);
const FLEET = 100;
const PUBLISHED = 60; // 22 queued (2 of them also asking a question; a failed worker makes 23) + 25 approved + 13 rejected
const BASES = 4;

const root = mkdtempSync(join(tmpdir(), "docket-bench-verdict-"));
const cleanups: (() => void)[] = [];
const t = { after: (fn: () => void) => void cleanups.push(fn) };
const lines = (n: number, tag: string) => `${Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join("\n")}\n`;

try {
  // A parent project of 240 files in 12 directories; its HEAD moves three times while the fleet starts (4 bases).
  const files: Record<string, string> = { "README.md": "bench\n" };
  for (let d = 0; d < 12; d++) for (let f = 0; f < 20; f++) files[`src/m${d}/f${f}.ts`] = lines(60, `m${d}/f${f}`);
  mkdirSync(join(root, "project"));
  const project = gitRepo(join(root, "project"), files);
  mkdirSync(join(root, "home"));
  const home = join(root, "home", "docket");
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: project });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, stdio: ["ignore", "pipe", "pipe"] });

  const started = performance.now();
  const published: ProtocolWorker[] = [];
  for (let i = 0; i < PUBLISHED; i++) {
    if (i > 0 && i % (PUBLISHED / BASES) === 0) {
      const b = i / (PUBLISHED / BASES);
      writeFileSync(join(project, `src/m${b}/f0.ts`), lines(60, `parent moved ${b}`));
      git("commit", "-qam", `parent change ${b}`);
    }
    const w = isolatedWorker(t, ctx, { project, runToken: `tok-${i}` });
    // Each patch edits 3 files: two of its own and one it shares with four other workers (overlaps); every tenth
    // also creates a file.
    if (i % 10 === 3) {
      mkdirSync(join(w.workspace, "src/new"), { recursive: true });
      writeFileSync(join(w.workspace, `src/new/w${i}.ts`), lines(5, `new file of worker ${i}`));
    }
    const edits = [
      `src/m${i % 12}/f${1 + (i % 19)}.ts`,
      `src/m${(i + 5) % 12}/f${1 + ((i * 7) % 19)}.ts`,
      `src/m${i % 12}/f0.ts`,
    ];
    for (const [k, path] of edits.entries()) {
      const text = readFileSync(join(w.workspace, path), "utf8").split("\n");
      text[(i * 3 + k * 11) % 55] = `changed by worker ${i}`;
      writeFileSync(join(w.workspace, path), text.join("\n"));
    }
    done(ctx, w, {
      callId: `bench-${i}`,
      body: `Worker ${i} finished.\n`,
      outcome: "completed",
      summary: `patch ${i}`,
      evidence: [{ kind: "test", text: "npm test: pass" }],
    });
    published.push(w);
  }
  // An uncommitted parent edit of a shared file, and an untracked parent file one patch also creates.
  writeFileSync(join(project, "src/m11/f0.ts"), lines(61, "parent edits a shared file"));
  mkdirSync(join(project, "src/new"));
  writeFileSync(join(project, "src/new/w3.ts"), "the parent's own\n");
  published.forEach((w, i) => {
    if (i >= 22 && i < 47) approve(ctx, { target: w.worker });
    else if (i >= 47) reject(ctx, { target: w.worker });
    else if (i < 2) wait(ctx, w, { question: `which option for worker ${i}?`, options: ["a", "b"] });
  });
  const failedRow = isolatedWorker(t, ctx, { project, runToken: "tok-failed" });
  fail(ctx, failedRow, { reason: "bench: gave up" });
  ctx.commands.run("bench.idle", {}, (tx) => {
    for (let i = PUBLISHED + 1; i < FLEET; i++) {
      insertShellWorker(tx, project, `t${i}`);
    }
  });
  console.log(
    `machine: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; fixture built in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // Count git processes through a PATH shim that logs, then runs the real git.
  const shimDir = join(root, "shim");
  mkdirSync(shimDir);
  const gitLog = join(root, "git.log");
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  writeFileSync(join(shimDir, "git"), `#!/bin/sh\necho "$1" >> "${gitLog}"\nexec "${realGit}" "$@"\n`);
  chmodSync(join(shimDir, "git"), 0o755);
  const plainPath = process.env.PATH;
  process.env.PATH = `${shimDir}:${plainPath ?? ""}`;
  // The parent-change cache keeps only an answer read once the checkout's files are older than its racy window, as a
  // human's checkout is when they look: wait that out, as the fixture was written just now.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_100);
  const counted = () => {
    writeFileSync(gitLog, "");
    const result = verdictQueue(ctx);
    return {
      result,
      calls: readFileSync(gitLog, "utf8")
        .split("\n")
        .filter((l) => l !== ""),
    };
  };
  const { result: queue, calls: gitCalls } = counted();
  const { calls: warmCalls } = counted();
  process.env.PATH = plainPath;

  const times: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    verdictQueue(ctx);
    times.push(performance.now() - t0);
  }
  const median = [...times].sort((a, b) => a - b)[3]!;
  const rows = (ctx.db.prepare("SELECT count(*) AS n FROM workers").get() as { n: number }).n;
  const warnings = queue.reduce((n, c) => n + c.warnings.length, 0);
  console.log(
    `verdict queue in process: ${queue.length} cards of ${rows} workers, ${warnings} warnings: median ${median.toFixed(1)} ms (${(median / queue.length).toFixed(2)} ms per card); ${gitCalls.length} git processes on a first look, ${warmCalls.length} on a second with nothing moved`,
  );
  const contract = JSON.stringify(
    queue.map((c) => ({
      worker: c.worker,
      state: c.state,
      deliverable: c.deliverable,
      approved: c.approved,
      warnings: c.warnings,
      actions: c.actions,
      planCoverage: c.planCoverage,
    })),
  );
  console.log(
    `queue digest (same fixture → same digest before and after): ${createHash("sha256").update(contract.split(root).join("<root>")).digest("hex").slice(0, 16)}`,
  );
  ctx.close();

  const env = { PATH: plainPath ?? "/usr/bin:/bin", HOME: join(root, "home"), DOCKET_HOME: home };
  const at = { cwd: project, env };
  printFigures(
    timeProcesses(
      [
        { label: "node -e 0", argv: [process.execPath, "-e", "0"], options: at },
        {
          label: "docket verdict --json (23 queued of 100)",
          argv: [process.execPath, BIN, "verdict", "--json"],
          options: at,
        },
        ...(BEFORE
          ? [{ label: "the same, built before", argv: [process.execPath, BEFORE, "verdict", "--json"], options: at }]
          : []),
      ],
      ROUNDS,
    ),
    { "docket verdict --json (23 queued of 100)": 2 },
  );
} finally {
  if (process.env.DOCKET_BENCH_KEEP === "1") {
    console.log(
      `fixture kept: cd ${join(root, "project")} && DOCKET_HOME=${join(root, "home", "docket")} docket verdict --json`,
    );
  } else {
    for (const fn of cleanups.reverse()) fn();
    rmSync(root, { recursive: true, force: true });
  }
}
