// The command runner: every ledger write is one synchronous function inside BEGIN IMMEDIATE … COMMIT,
// under an idempotency key with a request hash, plus an outbox of effects performed after commit
// (docs/decisions/command-pattern.md). After commit a command performs its own effects, then any left behind by a
// crashed process; an effect that fails never fails the command that happened to run it (a neighbour's projection must
// not break this spawn).

import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { conflict, isDocketError, type DocketError } from "../../domain/errors.js";
import { createOutbox, type EffectHandler, type Outbox } from "./outbox.js";
import { assertNoSnapshot } from "./snapshot.js";

export { ABANDONED_EFFECT_MS, type EffectHandler, type OutboxEffect } from "./outbox.js";

export interface Tx {
  readonly db: Database.Database;
  /** ISO time fixed for the whole command. */
  readonly now: string;
  /** Next value of a named counter (t, r, w, …); numbers are never reused. */
  next(counter: string): number;
  /** Queues an effect to perform after commit. */
  emit(kind: string, payload: unknown): void;
}

export interface CommandResult<R> {
  result: R;
  /** True when the key was seen before with the same request and the stored result was returned. */
  replayed: boolean;
}

/** One command of a batch that must commit together: its own name, request hash and key, as if run alone. */
export interface CommandStep<R> {
  command: string;
  request: unknown;
  fn: (tx: Tx) => R;
  key?: string;
}

/** What one step did: its result (possibly replayed), or the refusal it threw (its writes rolled back). */
export type StepOutcome<R> = ({ ok: true } & CommandResult<R>) | { ok: false; error: DocketError };

export interface BatchResult<R> {
  /** True only when every step succeeded and the batch was not a dry run. */
  committed: boolean;
  outcomes: StepOutcome<R>[];
}

export interface CommandRunner {
  run<R>(command: string, request: unknown, fn: (tx: Tx) => R, options?: { key?: string }): CommandResult<R>;
  /**
   * Runs every step in one BEGIN IMMEDIATE transaction, each in its own savepoint so a refused step is reported
   * beside the others; commits only when none refused (all or nothing). `dryRun` always rolls back: it answers
   * "would this batch be accepted now?" without writing. A bug (a non-Docket or internal error) throws at once.
   */
  runAll<R>(steps: readonly CommandStep<R>[], options?: { dryRun?: boolean }): BatchResult<R>;
  /** Performs every pending outbox effect this process handles, marking each done; returns how many were done. */
  drainOutbox(): number;
}

export function hashRequest(command: string, request: unknown): string {
  return createHash("sha256").update(command).update("\0").update(stableStringify(request)).digest("hex");
}

export function stableStringify(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
}

type Execute = <R>(step: CommandStep<R>, now: string, onEmit: (outboxId: number) => void) => CommandResult<R>;

export interface CommandRunnerOptions {
  clock?: () => string;
  effects?: Record<string, EffectHandler>;
  /**
   * When a committed command's effects run: at once by default; a surface that answers a caller may run them after
   * its answer (the door). They are in the outbox either way, so a process that dies first leaves them for the next.
   */
  afterCommit?: (perform: () => void) => void;
}

export function createCommandRunner(db: Database.Database, options: CommandRunnerOptions = {}): CommandRunner {
  const clock = options.clock ?? (() => new Date().toISOString());
  const outbox = createOutbox(db, options.effects ?? {}, clock);
  const execute = createExecute(db, outbox);
  const afterCommit = options.afterCommit ?? ((perform) => perform());
  return {
    run<R>(command: string, request: unknown, fn: (tx: Tx) => R, runOptions: { key?: string } = {}): CommandResult<R> {
      assertNoSnapshot(db, command);
      const emitted: number[] = [];
      const step = { command, request, fn, key: runOptions.key };
      const out = db.transaction(() => execute(step, clock(), (id) => emitted.push(id))).immediate();
      if (emitted.length > 0) afterCommit(() => outbox.performOwn(emitted));
      return out;
    },
    runAll: (steps, batchOptions = {}) => {
      for (const step of steps) assertNoSnapshot(db, step.command);
      return runBatch({ db, clock, outbox, execute, afterCommit }, steps, batchOptions);
    },
    drainOutbox: () => outbox.drain(),
  };
}

/** One command inside the caller's transaction: replay or conflict by key, else run it and remember its result. */
function createExecute(db: Database.Database, outbox: Outbox): Execute {
  const lookup = db.prepare("SELECT command, request_hash, result FROM idempotency WHERE key = ?");
  const remember = db.prepare(
    "INSERT INTO idempotency (key, command, request_hash, result, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  // Every command may claim ids; the counter row is the only hot spot and stays one page.
  const bump = db.prepare(
    "INSERT INTO counters (name, value) VALUES (?, 1) " +
      "ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
  );
  type Seen = { command: string; request_hash: string; result: string };
  return <R>(step: CommandStep<R>, now: string, onEmit: (outboxId: number) => void): CommandResult<R> => {
    // Without a caller key the command cannot be retried by identity, so nothing is remembered for it.
    const { command, request, fn, key } = step;
    const hash = key === undefined ? "" : hashRequest(command, request);
    const seen = key === undefined ? undefined : (lookup.get(key) as Seen | undefined);
    if (seen) {
      if (seen.command !== command || seen.request_hash !== hash) {
        throw conflict(
          "idempotency-conflict",
          `idempotency key "${key}" was already used for a different ${seen.command} request`,
          "use a fresh key for a different request",
        );
      }
      return { result: JSON.parse(seen.result) as R, replayed: true };
    }
    const tx: Tx = {
      db,
      now,
      next: (counter) => (bump.get(counter) as { value: number }).value,
      emit: (kind, payload) => onEmit(outbox.enqueue(kind, payload, now)),
    };
    const result = fn(tx);
    if (key !== undefined) remember.run(key, command, hash, JSON.stringify(result ?? null), now);
    return { result, replayed: false };
  };
}

interface BatchDeps {
  db: Database.Database;
  clock: () => string;
  outbox: Outbox;
  execute: Execute;
  afterCommit: (perform: () => void) => void;
}

function runBatch<R>(
  { db, clock, outbox, execute, afterCommit }: BatchDeps,
  steps: readonly CommandStep<R>[],
  batchOptions: { dryRun?: boolean },
): BatchResult<R> {
  const emitted: number[] = [];
  const rollback = new Error("batch rolled back");
  let outcomes: StepOutcome<R>[] = [];
  const body = db.transaction(() => {
    const now = clock();
    // A nested better-sqlite3 transaction is a savepoint: a refused step undoes only its own writes, so the steps
    // after it are judged on a clean state. A lone step needs none: its refusal rolls the whole batch back anyway.
    const inSavepoint = steps.length > 1;
    outcomes = steps.map((step): StepOutcome<R> => {
      const attempt = () => execute(step, now, (id) => emitted.push(id));
      try {
        return { ok: true, ...(inSavepoint ? db.transaction(attempt)() : attempt()) };
      } catch (error) {
        if (!isDocketError(error) || error.category === "internal") throw error;
        return { ok: false, error };
      }
    });
    if (batchOptions.dryRun || outcomes.some((o) => !o.ok)) throw rollback;
  });
  try {
    body.immediate();
  } catch (error) {
    if (error !== rollback) throw error;
    return { committed: false, outcomes };
  }
  if (emitted.length > 0) afterCommit(() => outbox.performOwn(emitted));
  return { committed: true, outcomes };
}
