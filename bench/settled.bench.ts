// Benchmark: `docket ls --json` and `docket verdict --json` in a project of 1,000 workers of which 980 are settled
// (ended, or judged and reviewed), beside the same commands in a project of only the 20 unsettled ones and `node -e 0`:
// what a settled worker costs a listing that does not show it. DOCKET_BENCH_BIN_BEFORE=<bin/docket.js> adds a build from
// before on the 1,000; DOCKET_BENCH_KEEP=1 keeps the fixture (for profiling).
// Never asserts; prints figures.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deliverableId, deliverableRef } from "../src/domain/deliverables/refs.js";
import { openEngine } from "../src/engine/open.js";
import { insertDecision } from "../src/ledger/review/decisions.js";
import { updateWorker } from "../src/ledger/workers/workers.js";
import { gitRepo } from "../test/support/git.js";
import { insertShellWorker } from "../test/support/work-ledger.js";
import { printFigures, timeProcesses, type ProcessCase } from "./support/processes.js";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, "..", "..", "bin", "docket.js");
const BEFORE = process.env.DOCKET_BENCH_BIN_BEFORE;
const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 11);
const UNSETTLED = 20;

const root = mkdtempSync(join(tmpdir(), "docket-bench-settled-"));

/** A project whose first `UNSETTLED` workers are 10 running and 10 failed unreviewed; the rest are settled. */
function fleet(name: string, size: number): { cwd: string; env: NodeJS.ProcessEnv } {
  const project = join(root, name);
  mkdirSync(project);
  gitRepo(project, { "README.md": "bench\n" });
  const home = join(root, `${name}-home`);
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: project });
  ctx.commands.run("bench.fleet", {}, (tx) => {
    for (let i = 0; i < size; i++) {
      const id = insertShellWorker(tx, project, `t${i}`);
      const exited = { exited: true, exitCode: 0, exitedAt: tx.now, paneCapturedAt: tx.now };
      if (i < UNSETTLED / 2) updateWorker(tx, id, { state: "active" });
      else if (i < UNSETTLED) updateWorker(tx, id, { state: "failed", lastError: "bench: gave up", ...exited });
      else if (i % 2 === 0) updateWorker(tx, id, { state: "ended", ...exited });
      else {
        // Ready with a version that was rejected or promoted, and reviewed: settled.
        const deliverable = { id: deliverableId(id), version: 1, ref: deliverableRef(id, 1) };
        updateWorker(tx, id, {
          state: "ready",
          reviewedAt: tx.now,
          deliverableId: deliverable.id,
          deliverableVersion: 1,
          deliverableRef: deliverable.ref,
          ...exited,
        });
        const judged = { actor: "human" as const, worker: id, deliverable, evidenceRefs: [deliverable.ref] };
        insertDecision(tx, { ...judged, verb: i % 4 === 1 ? "reject" : "promote", contentSha256: "0".repeat(64) });
      }
    }
  });
  ctx.close();
  return { cwd: project, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root, DOCKET_HOME: home } };
}

try {
  const big = fleet("big", 1_000);
  const small = fleet("small", UNSETTLED);
  console.log(
    `machine: ${cpus().length} cpus, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ${ROUNDS} rounds, commands interleaved`,
  );
  const docket = (...args: string[]) => [process.execPath, BIN, ...args];
  const cases: ProcessCase[] = [
    { label: "node -e 0", argv: [process.execPath, "-e", "0"], options: small },
    { label: `docket ls --json (${UNSETTLED} workers)`, argv: docket("ls", "--json"), options: small },
    { label: "docket ls --json (1,000 workers, 980 settled)", argv: docket("ls", "--json"), options: big },
    { label: `docket verdict --json (${UNSETTLED} workers)`, argv: docket("verdict", "--json"), options: small },
    { label: "docket verdict --json (1,000 workers, 980 settled)", argv: docket("verdict", "--json"), options: big },
  ];
  if (BEFORE) {
    const before = (...args: string[]) => [process.execPath, BEFORE, ...args];
    cases.push(
      { label: "before: docket ls --json (1,000 workers)", argv: before("ls", "--json"), options: big },
      { label: "before: docket verdict --json (1,000 workers)", argv: before("verdict", "--json"), options: big },
    );
  }
  printFigures(timeProcesses(cases, ROUNDS), {});
} finally {
  if (process.env.DOCKET_BENCH_KEEP === "1") console.log(`fixture kept: ${root} (big, small; DOCKET_HOME=<name>-home)`);
  else rmSync(root, { recursive: true, force: true });
}
