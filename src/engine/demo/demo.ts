// `docket demo`: the whole loop on a scratch repository with real pi workers and a scripted model — plan,
// approve, implement, review with coverage, promote, ledger — narrated step by step, leaving nothing running.

import { doorRunning, stopDoor } from "../door/door.js";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { DocketError } from "../../domain/errors.js";
import { createScratchDir, readScratchFile, writeScratchFile } from "../../files/scratch.js";
import { initRepository } from "../../substrate/git/init.js";
import type { EngineContext } from "../context.js";
import { openEngine } from "../open.js";
import { decisionLog, type DecisionLog } from "../review/decision-log.js";
import { DEMO_FILES, DEMO_ITEMS, architectScript, implementerScript } from "./script.js";
import { addItem, itemList } from "../work/items.js";
import { useForWorker } from "../handoff/use.js";
import { promote } from "../review/promote.js";
import { approve } from "../review/judge.js";
import { spawnWorker } from "../workers/spawn.js";
import { verdictCard, type VerdictCard } from "../review/verdict.js";
import { getWorker } from "../../ledger/workers/workers.js";
import { WORKER_IDENTITY_VARS } from "../../domain/authority.js";

export interface DemoOptions {
  /** Path of the scripted-model pi extension (the surface knows where it was built). */
  scriptedModel: string;
  /** The caller's environment; the demo runs in its own home, tmux server and pi config. */
  env: NodeJS.ProcessEnv;
  progress: (event: DemoEvent) => void;
  /** Where to create the scratch directory (default: the system temp dir). */
  parentDir?: string;
  timeoutMs?: number;
}

/** What the demo narrates; the surface decides how each is shown. */
export type DemoEvent =
  | { kind: "step"; elapsed: number; text: string }
  | { kind: "card"; card: VerdictCard }
  | { kind: "file"; path: string; text: string }
  | { kind: "log"; log: DecisionLog };

export interface DemoResult {
  dir: string;
  repo: string;
  home: string;
  architect: string;
  implementer: string;
  promotedFiles: string[];
  decisions: number;
  seconds: number;
}

const MODEL = "docket-demo/scripted";

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = Date.now();
  const step = (text: string) => options.progress({ kind: "step", elapsed: (Date.now() - started) / 1000, text });
  const dir = createScratchDir("docket-demo-", options.parentDir);
  const repo = join(dir, "greeter");
  const home = join(dir, "docket-home");
  step(`scratch repository ${repo}`);
  initRepository(repo, DEMO_FILES, "greeter: hello world");
  const socket = `docket-demo-${randomBytes(4).toString("hex")}`;
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: socket,
    DOCKET_PI_ARGS: `-ne -ns -np -nc --no-themes -e ${options.scriptedModel}`,
    PI_CODING_AGENT_DIR: join(dir, "pi-agent"),
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
  };
  // The demo judges only its own scratch home, so a worker identity of the caller does not follow it in.
  for (const name of WORKER_IDENTITY_VARS) delete env[name];
  const ctx = openEngine({ env, cwd: repo });
  const workers: string[] = [];
  try {
    const [t1, t2] = DEMO_ITEMS.map((text) => addItem(ctx, { kind: "todo", text }).id) as [string, string];
    step(`items ${t1} "${DEMO_ITEMS[0]}" and ${t2} "${DEMO_ITEMS[1]}"`);

    const architectScriptPath = writeScript(dir, "architect.json", architectScript());
    const architect = await spawnWorker(ctx, {
      task: "Plan how greet() can greet people by name",
      kind: "architect",
      model: MODEL,
      env: { DOCKET_SCRIPTED_MODEL: architectScriptPath },
      yes: true,
    });
    workers.push(architect.worker);
    const contained = architect.summary.find((line) => line.startsWith("Contained: ")) ?? "";
    step(`spawned ${architect.worker} (architect, read-only, shared workspace) with the scripted model; waiting for its plan…`);
    step(contained);
    await waitForState(ctx, architect.worker, "ready", options.timeoutMs);
    const planCard = verdictCard(ctx, architect.worker);
    step(`${architect.worker} published ${planCard.deliverable?.ref ?? "a plan"}; its verdict card:`);
    options.progress({ kind: "card", card: planCard });

    const approval = approve(ctx, { target: architect.worker });
    step(`approved ${approval.decision.deliverable?.ref} (${approval.decision.id}) — approval starts nothing by itself`);

    const implementerScriptPath = writeScript(dir, "implementer.json", implementerScript([t1, t2]));
    const implemented = await useForWorker(ctx, {
      target: architect.worker,
      implement: true,
      model: MODEL,
      items: [t1, t2],
      env: { DOCKET_SCRIPTED_MODEL: implementerScriptPath },
      yes: true,
    });
    workers.push(implemented.worker);
    step(`Implement started ${implemented.worker} (${implemented.kind}, plan gate ${implemented.planGate}) with ${t1} and ${t2}; waiting for its deliverable…`);
    await waitForState(ctx, implemented.worker, "ready", options.timeoutMs);
    // docket_done publishes the version (→ ready) first, then reports each item: wait for those commands too.
    await waitUntil(() => itemList(ctx, { all: false }).length === 0, options.timeoutMs, `${implemented.worker}'s item reports`);
    const states = itemList(ctx, { all: true }).map((i) => `${i.id} ${i.state}`);
    step(`per-item reports landed in the ledger with the deliverable: ${states.join(" · ")}`);
    const card = verdictCard(ctx, implemented.worker);
    step(`${implemented.worker} published ${card.deliverable?.ref}; its verdict card (with plan coverage):`);
    options.progress({ kind: "card", card });

    const promoted = promote(ctx, { target: implemented.worker, approve: true, yes: true });
    step(`approved and promoted ${promoted.files.length} files into ${repo}: ${promoted.files.join(", ")}`);
    options.progress({ kind: "file", path: join(repo, "greet.js"), text: readScratchFile(join(repo, "greet.js")) });

    const log = decisionLog(ctx, {});
    step("the decision ledger:");
    options.progress({ kind: "log", log });
    return {
      dir,
      repo,
      home,
      architect: architect.worker,
      implementer: implemented.worker,
      promotedFiles: promoted.files,
      decisions: log.decisions.length,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    stopWorkers(ctx, workers);
    await stopDemoDoor(ctx);
    ctx.close();
    step(`stopped every demo worker; files stay in ${dir}`);
  }
}

function writeScript(dir: string, name: string, steps: unknown[]): string {
  const path = join(dir, name);
  writeScratchFile(path, `${JSON.stringify(steps, null, 2)}\n`);
  return path;
}

async function waitForState(ctx: EngineContext, worker: string, state: "ready", timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = getWorker(ctx.db, worker);
    if (row?.state === state) return;
    if (row && (row.state === "failed" || row.exited)) {
      const tail = row.paneId ? safeCapture(ctx, row.paneId) : "";
      throw new DocketError("refusal", "demo-worker-failed", `${worker} ${row.state === "failed" ? "failed" : "exited"} before publishing: ${row.lastError ?? "no reason recorded"}${tail ? `\n${tail}` : ""}`);
    }
    if (Date.now() > deadline) throw new DocketError("refusal", "demo-timeout", `${worker} did not become ${state} within ${Math.round(timeoutMs / 1000)} s (state ${row?.state})`, { hint: `\`docket peek ${worker}\` with DOCKET_HOME and DOCKET_TMUX_SOCKET of the demo` });
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function waitUntil(done: () => boolean, timeoutMs = 90_000, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new DocketError("refusal", "demo-timeout", `${what} did not arrive within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function safeCapture(ctx: EngineContext, pane: string): string {
  try {
    return ctx.tmux.capture(pane, 30).trimEnd();
  } catch {
    return ""; // the pane is gone; the failure reason above is all there is
  }
}

function stopWorkers(ctx: EngineContext, workers: readonly string[]): void {
  const tmux = ctx.tmux;
  for (const id of workers) {
    const row = getWorker(ctx.db, id);
    if (row?.windowId) {
      try {
        tmux.killWindow(row.windowId);
      } catch {
        // Already gone: nothing left running for this worker.
      }
    }
  }
  tmux.killServer(); // the demo's private server, never the user's
}

/** The door of the demo's own home: stopped, and waited for (bounded), so the demo leaves nothing running. */
async function stopDemoDoor(ctx: EngineContext): Promise<void> {
  if (stopDoor(ctx) === undefined) return;
  await waitUntil(() => !doorRunning(ctx), 5_000, "the demo's door to stop").catch(() => undefined); // it stops by itself soon after
}
