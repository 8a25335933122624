// A pi worker row and the session file pi writes for one model call (its usage, no cost of its own): the records a
// worker's spend is read from, for tests of how its cost is shown.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EngineContext } from "../../src/engine/context.js";
import { insertWorker } from "../../src/ledger/workers/workers.js";

export function piWorker(ctx: EngineContext, runToken: string): string {
  return ctx.commands.run("test.pi-worker", { runToken }, (tx) =>
    insertWorker(tx, {
      task: "pi task",
      kind: "general",
      agent: "pi",
      execution: {},
      cwd: ctx.cwd,
      projectRoot: ctx.cwd,
      workspace: () => ctx.cwd,
      workspaceMode: "shared",
      runToken,
    }),
  ).result;
}

/** One assistant message of a pi session file, as pi writes it, with its usage and no cost of its own. */
export function piSession(
  ctx: EngineContext,
  worker: string,
  call: { provider: string; model: string; input: number; output: number },
): void {
  const dir = join(ctx.home.workerDir(worker), "session");
  mkdirSync(dir, { recursive: true });
  const usage = {
    input: call.input,
    output: call.output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: call.input + call.output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const line = {
    type: "message",
    timestamp: "2026-01-01T00:01:00.000Z",
    message: {
      role: "assistant",
      provider: call.provider,
      model: call.model,
      usage,
      content: [],
      timestamp: Date.parse("2026-01-01T00:01:00.000Z"),
    },
  };
  writeFileSync(
    join(dir, "2026-01-01.jsonl"),
    `${JSON.stringify({ type: "session", id: "s" })}\n${JSON.stringify(line)}\n`,
  );
}
