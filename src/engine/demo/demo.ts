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

/** What the demo's steps share: its engine, its scratch directory, the narration and the workers to stop. */
interface DemoRun {
  ctx: EngineContext;
  dir: string;
  options: DemoOptions;
  step(text: string): void;
  /** Every worker started, so the demo stops them all however it ends. */
  workers: string[];
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const started = Date.now();
  const step = (text: string) => options.progress({ kind: "step", elapsed: (Date.now() - started) / 1000, text });
  const dir = createScratchDir("docket-demo-", options.parentDir);
  const repo = join(dir, "greeter");
  const home = join(dir, "docket-home");
  step(`scratch repository ${repo}`);
  initRepository(repo, DEMO_FILES, "greeter: hello world");
  const ctx = openEngine({ env: demoEnv(options, dir, home), cwd: repo });
  const run: DemoRun = { ctx, dir, options, step, workers: [] };
  try {
    const [t1, t2] = DEMO_ITEMS.map((text) => addItem(ctx, { kind: "todo", text }).id) as [string, string];
    step(`items ${t1} "${DEMO_ITEMS[0]}" and ${t2} "${DEMO_ITEMS[1]}"`);
    const architect = await planAndApprove(run);
    const implementer = await implementPlan(run, architect, [t1, t2]);

    const promoted = promote(ctx, { target: implementer, approve: true, yes: true });
    step(`approved and promoted ${promoted.files.length} files into ${repo}: ${promoted.files.join(", ")}`);
    options.progress({ kind: "file", path: join(repo, "greet.js"), text: readScratchFile(join(repo, "greet.js")) });

    const log = decisionLog(ctx, {});
    step("the decision ledger:");
    options.progress({ kind: "log", log });
    const seconds = (Date.now() - started) / 1000;
    const decisions = log.decisions.length;
    return { dir, repo, home, architect, implementer, promotedFiles: promoted.files, decisions, seconds };
  } finally {
    stopWorkers(ctx, run.workers);
    await stopDemoDoor(ctx);
    ctx.close();
    step(`stopped every demo worker; files stay in ${dir}`);
  }
}

/** The demo's own home, private tmux server and offline pi with the scripted model; no worker identity of the
 * caller. */
function demoEnv(options: DemoOptions, dir: string, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: `docket-demo-${randomBytes(4).toString("hex")}`,
    DOCKET_PI_ARGS: `-ne -ns -np -nc --no-themes -e ${options.scriptedModel}`,
    PI_CODING_AGENT_DIR: join(dir, "pi-agent"),
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
  };
  // The demo judges only its own scratch home, so a worker identity of the caller does not follow it in.
  for (const name of WORKER_IDENTITY_VARS) delete env[name];
  return env;
}

/** An architect plans; its card is shown and its plan approved. Returns the architect's id. */
async function planAndApprove({ ctx, dir, options, step, workers }: DemoRun): Promise<string> {
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
  step(
    `spawned ${architect.worker} (architect, read-only, shared workspace) with the scripted model; ` +
      "waiting for its plan…",
  );
  step(contained);
  await waitForState(ctx, architect.worker, "ready", options.timeoutMs);
  const planCard = verdictCard(ctx, architect.worker);
  step(`${architect.worker} published ${planCard.deliverable?.ref ?? "a plan"}; its verdict card:`);
  options.progress({ kind: "card", card: planCard });

  const approval = approve(ctx, { target: architect.worker });
  const { decision } = approval;
  step(`approved ${decision.deliverable?.ref} (${decision.id}) — approval starts nothing by itself`);
  return architect.worker;
}

/** Use → Implement starts an implementer on the approved plan; its reports land and its card is shown. */
async function implementPlan(run: DemoRun, architect: string, items: [string, string]): Promise<string> {
  const { ctx, dir, options, step } = run;
  const [t1, t2] = items;
  const implementerScriptPath = writeScript(dir, "implementer.json", implementerScript(items));
  const implemented = await useForWorker(ctx, {
    target: architect,
    implement: true,
    model: MODEL,
    items,
    env: { DOCKET_SCRIPTED_MODEL: implementerScriptPath },
    yes: true,
  });
  run.workers.push(implemented.worker);
  step(
    `Implement started ${implemented.worker} (${implemented.kind}, plan gate ${implemented.planGate}) ` +
      `with ${t1} and ${t2}; waiting for its deliverable…`,
  );
  await waitForState(ctx, implemented.worker, "ready", options.timeoutMs);
  // docket_done publishes the version (→ ready) first, then reports each item: wait for those commands too.
  const reported = () => itemList(ctx, { all: false }).length === 0;
  await waitUntil(reported, options.timeoutMs, `${implemented.worker}'s item reports`);
  const states = itemList(ctx, { all: true }).map((i) => `${i.id} ${i.state}`);
  step(`per-item reports landed in the ledger with the deliverable: ${states.join(" · ")}`);
  const card = verdictCard(ctx, implemented.worker);
  step(`${implemented.worker} published ${card.deliverable?.ref}; its verdict card (with plan coverage):`);
  options.progress({ kind: "card", card });
  return implemented.worker;
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
      const how = row.state === "failed" ? "failed" : "exited";
      const why = `${row.lastError ?? "no reason recorded"}${tail ? `\n${tail}` : ""}`;
      throw new DocketError("refusal", "demo-worker-failed", `${worker} ${how} before publishing: ${why}`);
    }
    if (Date.now() > deadline) {
      const late = `${worker} did not become ${state} within ${Math.round(timeoutMs / 1000)} s (state ${row?.state})`;
      const hint = `\`docket peek ${worker}\` with DOCKET_HOME and DOCKET_TMUX_SOCKET of the demo`;
      throw new DocketError("refusal", "demo-timeout", late, { hint });
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function waitUntil(done: () => boolean, timeoutMs = 90_000, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) {
      const late = `${what} did not arrive within ${Math.round(timeoutMs / 1000)} s`;
      throw new DocketError("refusal", "demo-timeout", late);
    }
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
  // It stops by itself soon after if this wait runs out.
  await waitUntil(() => !doorRunning(ctx), 5_000, "the demo's door to stop").catch(() => undefined);
}
