// A real engine over a temp Docket home with a settable clock, worker rows inserted directly, and table dumps
// for "nothing changed" assertions (the work ledger's tests: items, dispatch, reports, obligations).

import { UNCONTAINED } from "./docket-cli.js";
import type { EngineContext } from "../../src/engine/context.js";
import { openEngine } from "../../src/engine/open.js";
import { insertWorker } from "../../src/ledger/workers/workers.js";
import type { Db } from "../../src/ledger/core/open.js";
import type { Tmux } from "../../src/substrate/tmux.js";
import type { Git } from "../../src/substrate/git/port.js";
import type { Agents } from "../../src/substrate/agents/port.js";
import { tempDir } from "./temp.js";

export interface TestClock {
  now(): string;
  nowMs(): number;
  set(iso: string): void;
  advanceMinutes(n: number): void;
}

export function testClock(start = "2026-01-01T00:00:00.000Z"): TestClock {
  let ms = Date.parse(start);
  return {
    now: () => new Date(ms).toISOString(),
    nowMs: () => ms,
    set: (iso) => void (ms = Date.parse(iso)),
    advanceMinutes: (n) => void (ms += n * 60_000),
  };
}

export interface WorkLedger {
  ctx: EngineContext;
  clock: TestClock;
  home: string;
}

export function workLedger(
  t: { after(fn: () => void): void },
  options: { env?: Record<string, string>; tmux?: Tmux; git?: Git; agents?: Agents } = {},
): WorkLedger {
  const home = tempDir(t, "docket-work-");
  const clock = testClock();
  const ctx = openEngine({
    env: { DOCKET_HOME: home, ...UNCONTAINED, ...(options.env ?? {}) },
    cwd: home,
    clock,
    ...(options.tmux ? { tmux: options.tmux } : {}),
    ...(options.git ? { git: options.git } : {}),
    ...(options.agents ? { agents: options.agents } : {}),
  });
  t.after(() => ctx.close());
  return { ctx, clock, home };
}

/** Inserts a worker row at generation 1 (spawn itself is not under test here); returns its identity. */
export function addWorker(
  ctx: EngineContext,
  runToken = "token-1",
): { worker: string; generation: number; runToken: string } {
  const worker = ctx.commands.run("test.worker", { runToken }, (tx) => insertShellWorker(tx, ctx.cwd, runToken)).result;
  return { worker, generation: 1, runToken };
}

/** A command worker's row in `projectRoot`, working in it (shared), inside the caller's transaction; its id. */
export function insertShellWorker(
  tx: Parameters<typeof insertWorker>[0],
  projectRoot: string,
  runToken: string,
): string {
  return insertWorker(tx, {
    task: "test worker",
    kind: "general",
    agent: "command",
    command: "true",
    execution: {},
    cwd: projectRoot,
    projectRoot,
    workspace: () => projectRoot,
    workspaceMode: "shared",
    runToken,
  });
}

/** Every row of every ledger table (whatever migrations added), for exact before/after comparisons. */
export function dumpTables(db: Db): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  for (const { name } of tables) out[name] = db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all();
  return out;
}

/**
 * The same, less what a refused worker call leaves for the human to see (its finding, one attention line and their
 * counter): "nothing changed" for a refusal means nothing of the work changed.
 */
export function dumpWorkTables(db: Db): Record<string, unknown[]> {
  const out = dumpTables(db);
  for (const table of ["worker_findings", "notifications", "counters"]) delete out[table];
  return out;
}

/** The seed's invariants over the whole ledger; returns the violations (empty when all hold). */
export function invariantViolations(db: Db): string[] {
  const q = (sql: string) => (db.prepare(sql).all() as { id: string }[]).map((r) => r.id);
  const problems: string[] = [];
  for (const id of q(
    "SELECT b.id FROM bindings b JOIN obligations o ON o.binding = b.id WHERE b.state = 'resolved' AND o.state = 'owed'",
  )) {
    problems.push(`binding ${id} is resolved while its obligation is owed`);
  }
  for (const id of q(
    "SELECT b.id FROM bindings b JOIN obligations o ON o.binding = b.id WHERE b.state = 'active' AND o.state = 'resolved'",
  )) {
    problems.push(`binding ${id} is active while its obligation is resolved`);
  }
  for (const id of q(
    "SELECT o.id FROM obligations o LEFT JOIN reports r ON r.id = o.disposition WHERE o.state = 'resolved' AND (r.id IS NULL OR r.binding != o.binding)",
  )) {
    problems.push(`obligation ${id} is resolved without the report that paid it`);
  }
  for (const id of q(
    "SELECT d.id FROM dispatches d WHERE d.state = 'resolved' AND EXISTS (SELECT 1 FROM bindings b WHERE b.dispatch = d.id AND b.state = 'active')",
  )) {
    problems.push(`dispatch ${id} is resolved while a binding is active`);
  }
  for (const id of q(
    "SELECT d.id FROM dispatches d WHERE d.state = 'active' AND NOT EXISTS (SELECT 1 FROM bindings b WHERE b.dispatch = d.id AND b.state = 'active')",
  )) {
    problems.push(`dispatch ${id} is active with no active binding`);
  }
  for (const id of q(
    "SELECT i.id FROM items i JOIN bindings b ON b.item = i.id WHERE b.state = 'active' AND i.state != 'open'",
  )) {
    problems.push(`item ${id} is not open while actively bound`);
  }
  for (const id of q(
    "SELECT b.id FROM bindings b WHERE b.state = 'resolved' AND NOT EXISTS (SELECT 1 FROM reports r WHERE r.binding = b.id AND r.outcome != 'blocked')",
  )) {
    problems.push(`binding ${id} resolved without a terminal report`);
  }
  return problems;
}
