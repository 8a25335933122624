// The command runner: every ledger write is one synchronous function inside BEGIN IMMEDIATE … COMMIT,
// under an idempotency key with a request hash, plus an outbox of effects performed after commit (DESIGN §3).

import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { conflict } from "../../domain/errors.js";

export interface Tx {
  readonly db: Database.Database;
  /** ISO time fixed for the whole command. */
  readonly now: string;
  /** Next value of a named counter (t, r, w, …); numbers are never reused. */
  next(counter: string): number;
  /** Queues an effect to perform after commit. */
  emit(kind: string, payload: unknown): void;
}

export interface OutboxEffect {
  id: number;
  kind: string;
  payload: unknown;
}

export type EffectHandler = (effect: OutboxEffect) => void;

export interface CommandResult<R> {
  result: R;
  /** True when the key was seen before with the same request and the stored result was returned. */
  replayed: boolean;
}

export interface CommandRunner {
  run<R>(command: string, request: unknown, fn: (tx: Tx) => R, options?: { key?: string }): CommandResult<R>;
  /** Performs pending outbox effects of the given kinds (or all registered), marking each done. */
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

export function createCommandRunner(db: Database.Database, options: { clock?: () => string; effects?: Record<string, EffectHandler> } = {}): CommandRunner {
  const clock = options.clock ?? (() => new Date().toISOString());
  const handlers = options.effects ?? {};
  const lookup = db.prepare("SELECT command, request_hash, result FROM idempotency WHERE key = ?");
  const remember = db.prepare("INSERT INTO idempotency (key, command, request_hash, result, created_at) VALUES (?, ?, ?, ?, ?)");
  // Every command may claim ids; the counter row is the only hot spot and stays one page.
  const bump = db.prepare(
    "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
  );
  const enqueue = db.prepare("INSERT INTO outbox (kind, payload, created_at) VALUES (?, ?, ?)");
  // Only the kinds this process performs: effects queued for another surface must not crowd these out.
  const pending = db.prepare(
    `SELECT id, kind, payload FROM outbox WHERE done_at IS NULL AND kind IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 200`,
  );
  const markDone = db.prepare("UPDATE outbox SET done_at = ? WHERE id = ? AND done_at IS NULL");

  function run<R>(command: string, request: unknown, fn: (tx: Tx) => R, runOptions: { key?: string } = {}): CommandResult<R> {
    // Without a caller key the command cannot be retried by identity, so nothing is remembered for it.
    const key = runOptions.key;
    const hash = key === undefined ? "" : hashRequest(command, request);
    let emitted = false;
    const body = db.transaction((): CommandResult<R> => {
      const seen = key === undefined ? undefined : lookup.get(key) as { command: string; request_hash: string; result: string } | undefined;
      if (seen) {
        if (seen.command !== command || seen.request_hash !== hash) {
          throw conflict("idempotency-conflict", `idempotency key "${key}" was already used for a different ${seen.command} request`, "use a fresh key for a different request");
        }
        return { result: JSON.parse(seen.result) as R, replayed: true };
      }
      const now = clock();
      const tx: Tx = {
        db,
        now,
        next: (counter) => (bump.get(counter) as { value: number }).value,
        emit: (kind, payload) => {
          emitted = true;
          enqueue.run(kind, JSON.stringify(payload ?? null), now);
        },
      };
      const result = fn(tx);
      if (key !== undefined) remember.run(key, command, hash, JSON.stringify(result ?? null), now);
      return { result, replayed: false };
    });
    const out = body.immediate();
    if (emitted) drainOutbox();
    return out;
  }

  function drainOutbox(): number {
    let done = 0;
    for (const row of pending.all(JSON.stringify(Object.keys(handlers))) as { id: number; kind: string; payload: string }[]) {
      const handler = handlers[row.kind];
      if (!handler) continue;
      // The effect runs before it is marked done, so a crash in between repeats it: effects are idempotent.
      handler({ id: row.id, kind: row.kind, payload: JSON.parse(row.payload) });
      if (markDone.run(clock(), row.id).changes > 0) done++;
    }
    return done;
  }

  return { run, drainOutbox };
}
