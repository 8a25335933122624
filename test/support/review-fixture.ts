// A parent git project, an engine whose cwd is that project, and workers with real worktrees that publish
// frozen versions through the real protocol `done` — the ground on which review, promotion and use are tested.

import { cliEnv, docket, UNCONTAINED, type CliRun } from "./docket-cli.js";
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EngineContext } from "../../src/engine/context.js";
import { openEngine } from "../../src/engine/open.js";
import { done, wait, type WaitInput } from "../../src/engine/protocol/protocol.js";
import type { DeliverablePointer } from "../../src/domain/deliverables/deliverable.js";
import { git, gitRepo } from "./git.js";
import { isolatedWorker, type ProtocolWorker } from "./protocol-worker.js";
import { tempDir } from "./temp.js";
import { testClock, type TestClock } from "./work-ledger.js";

type T = { after(fn: () => void): void };

/** The top-level keys of `verdict --json`, the contract a card keeps whatever it shows (sorted). */
export const CARD_KEYS = [
  "actions",
  "approved",
  "comments",
  "deliverable",
  "network",
  "planCoverage",
  "spend",
  "state",
  "warnings",
  "worker",
];

export interface ReviewGround {
  ctx: EngineContext;
  clock: TestClock;
  home: string;
  project: string;
}

export const PROJECT_FILES: Record<string, string> = {
  "README.md": "hello\n",
  "src/app.txt": `${Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n")}\n`,
  "src/other.txt": "alpha\nbeta\ngamma\n",
};

export function reviewGround(t: T, files: Record<string, string> = PROJECT_FILES): ReviewGround {
  const home = tempDir(t, "docket-review-home-");
  const project = gitRepo(tempDir(t, "docket-review-project-"), files);
  const clock = testClock("2026-03-01T10:00:00.000Z");
  const ctx = openEngine({ env: { DOCKET_HOME: home, ...UNCONTAINED }, cwd: project, clock });
  t.after(() => ctx.close());
  return { ctx, clock, home, project };
}

export function reviewWorker(t: T, g: ReviewGround): ProtocolWorker {
  return isolatedWorker(t, g.ctx, { project: g.project });
}

/** Records the worker as a command worker that runs on `host` (a remote spawn's execution), its name read back as is. */
export function runsOnHost(g: ReviewGround, w: ProtocolWorker, host: string): void {
  const execution = {
    agent: "command",
    command: "true",
    kind: "general",
    model: null,
    thinking: "off",
    context: "fresh",
    workspace: "isolated",
    readOnly: false,
    piArgs: [],
    subdir: "",
    host,
  };
  g.ctx.db.prepare("UPDATE workers SET execution = ? WHERE id = ?").run(JSON.stringify(execution), w.worker);
}

/** The CLI environment of the ground's home, with a scratch HOME, TMPDIR and pi agent dir (and any `extra` env). */
export function groundEnv(t: T, g: ReviewGround, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const scratch = tempDir(t, "docket-review-cli-");
  return cliEnv({
    DOCKET_HOME: g.home,
    HOME: scratch,
    TMPDIR: scratch,
    PI_CODING_AGENT_DIR: join(scratch, "pi"),
    ...extra,
  });
}

/** The real CLI as the human in the project (the ground's environment, and any `extra` env). */
export function humanCli(t: T, g: ReviewGround, extra: Record<string, string> = {}): (...args: string[]) => CliRun {
  const env = groundEnv(t, g, extra);
  return (...args) => docket({ env, cwd: g.project }, ...args);
}

/** Writes files into a directory (parents created). */
export function write(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

let calls = 0;

/** What a worker's own calls carry: its id, generation and run token. */
export function identityOf(w: ProtocolWorker): { worker: string; generation: number; runToken: string } {
  return { worker: w.worker, generation: w.generation, runToken: w.runToken };
}

/** A new worker that asks the human through the real `wait`: its question waits in the queue. */
export function askingWorker(t: T, g: ReviewGround, input: WaitInput): ProtocolWorker {
  const w = reviewWorker(t, g);
  wait(g.ctx, identityOf(w), input);
  return w;
}

/** The worker edits `files` in its workspace and publishes the next version through the real `done`. */
export function publish(
  g: ReviewGround,
  w: ProtocolWorker,
  files: Record<string, string>,
  body = "Done.\n",
): DeliverablePointer {
  write(w.workspace, files);
  calls += 1;
  return done(g.ctx, identityOf(w), {
    callId: `call-${calls}`,
    body,
    outcome: "completed",
    summary: `changed ${Object.keys(files).join(", ")}`,
    evidence: [{ kind: "test", text: "npm test: 3 pass" }],
  }).deliverable;
}

/** `line N` replaced in the 40-line app file. */
export function appWith(changes: Record<number, string>): string {
  return `${Array.from({ length: 40 }, (_, i) => changes[i + 1] ?? `line ${i + 1}`).join("\n")}\n`;
}

export function gitStatus(dir: string): string {
  return git(dir, "status", "--porcelain=v1", "--untracked-files=all");
}

export function decisionCount(ctx: EngineContext): number {
  return (ctx.db.prepare("SELECT count(*) AS n FROM decisions").get() as { n: number }).n;
}
