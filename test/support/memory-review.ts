// The review ground over in-memory ports: an engine whose git is memory-git.ts and whose tmux is memory-tmux.ts, a
// project that is an empty directory (its files live in the memory git), workers that publish through the real `done`.

import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { DeliverablePointer } from "../../src/domain/deliverables/deliverable.js";
import type { EngineContext } from "../../src/engine/context.js";
import { openEngine } from "../../src/engine/open.js";
import { done } from "../../src/engine/protocol/protocol.js";
import { updateWorker } from "../../src/ledger/workers/workers.js";
import { UNCONTAINED } from "./docket-cli.js";
import { countingGit } from "./git-counter.js";
import { memoryGit, type MemoryGit } from "./memory-git.js";
import { memoryTmux } from "./memory-tmux.js";
import { insertIsolatedRow, type ProtocolWorker } from "./protocol-worker.js";
import { PROJECT_FILES } from "./review-fixture.js";
import { tempDir } from "./temp.js";
import { testClock } from "./work-ledger.js";

type T = { after(fn: () => void): void };

export interface MemoryGround {
  ctx: EngineContext;
  git: MemoryGit;
  project: string;
}

export function memoryGround(t: T, files: Record<string, string> = PROJECT_FILES): MemoryGround {
  const home = tempDir(t, "docket-memory-home-");
  const project = realpathSync(tempDir(t, "docket-memory-project-"));
  const git = memoryGit(project, files);
  const clock = testClock("2026-03-01T10:00:00.000Z");
  const ctx = openEngine({ env: { DOCKET_HOME: home, ...UNCONTAINED }, cwd: project, clock, git, tmux: memoryTmux() });
  t.after(() => ctx.close());
  return { ctx, git, project };
}

/** Runs a test's whole body, ground made included, with the counting git first on PATH; asserts no git process ran. */
export function withoutGit(t: T, body: (g: MemoryGround) => void): MemoryGround {
  const { result: g, calls } = countingGit(t, () => {
    const g = memoryGround(t);
    body(g);
    return g;
  });
  assert.deepEqual(calls, [], "no git process ran");
  assert.equal(g.ctx.git, g.git, "the engine's git is the in-memory one");
  return g;
}

/** A worker row (spawn is not under test) whose workspace `ctx.git` made, as spawn asks, from the checkout as it is. */
export function memoryWorker(g: MemoryGround, runToken = "token-1"): ProtocolWorker {
  const { ctx, project } = g;
  const worker = insertIsolatedRow(ctx, project, runToken, { seq: g.git.workspaces.size });
  const target = join(ctx.home.workers, worker, "workspace");
  const made = ctx.git.createIsolatedWorkspace({ root: project, target, adminName: `docket-${worker}` });
  ctx.commands.run("test.worker.base", { worker, base: made.base }, (tx) =>
    updateWorker(tx, worker, { base: made.base, baseHead: made.baseHead, state: "active" }),
  );
  return { worker, generation: 1, runToken, workspace: target, project, base: made.base };
}

let calls = 0;

/** The worker edits its in-memory workspace (null deletes a file) and publishes the next version through `done`. */
export function publishMemory(
  g: MemoryGround,
  w: ProtocolWorker,
  files: Record<string, string | null>,
): DeliverablePointer {
  const live = g.git.workspace(w.workspace).files;
  for (const [path, text] of Object.entries(files)) {
    if (text === null) live.delete(path);
    else live.set(path, text);
  }
  calls += 1;
  return done(
    g.ctx,
    { worker: w.worker, generation: w.generation, runToken: w.runToken },
    {
      callId: `memory-call-${calls}`,
      body: "Done.\n",
      outcome: "completed",
      summary: `changed ${Object.keys(files).join(", ")}`,
      evidence: [{ kind: "test", text: "npm test: 3 pass" }],
    },
  ).deliverable;
}
