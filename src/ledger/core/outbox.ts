// The outbox: effects a command queues inside its transaction and performs after commit, then any a crashed
// process left behind. An effect that fails stays queued for a later command; it never fails the one that ran it.

import type Database from "better-sqlite3";

export interface OutboxEffect {
  id: number;
  kind: string;
  payload: unknown;
}

export type EffectHandler = (effect: OutboxEffect) => void;

/** An effect still pending this long after its command was left behind by a process that died before doing it. */
export const ABANDONED_EFFECT_MS = 10_000;

interface EffectRow {
  id: number;
  kind: string;
  payload: string;
}

export interface Outbox {
  /** Queues an effect inside the caller's transaction; returns its outbox id. */
  enqueue(kind: string, payload: unknown, now: string): number;
  /** After a commit: the effects `emitted` by that command, then any a crashed process left pending. */
  performOwn(emitted: readonly number[]): void;
  /** Performs every pending effect this process handles, marking each done; returns how many were done. */
  drain(): number;
}

export function createOutbox(
  db: Database.Database,
  handlers: Record<string, EffectHandler>,
  clock: () => string,
): Outbox {
  const enqueue = db.prepare("INSERT INTO outbox (kind, payload, created_at) VALUES (?, ?, ?)");
  // Only the kinds this process performs: effects queued for another surface must not crowd these out.
  const kinds = "kind IN (SELECT value FROM json_each(?))";
  const pending = db.prepare(
    `SELECT id, kind, payload FROM outbox WHERE done_at IS NULL AND ${kinds} ORDER BY id LIMIT 200`,
  );
  const abandoned = db.prepare(
    `SELECT id, kind, payload FROM outbox WHERE done_at IS NULL AND created_at < ? AND ${kinds} ORDER BY id LIMIT 200`,
  );
  const own = db.prepare("SELECT id, kind, payload FROM outbox WHERE id = ? AND done_at IS NULL");
  const markDone = db.prepare("UPDATE outbox SET done_at = ? WHERE id = ? AND done_at IS NULL");
  const handled = JSON.stringify(Object.keys(handlers));

  /** Performs each effect once per run (repeated status projections of one worker collapse into one). */
  function perform(rows: readonly EffectRow[]): number {
    let done = 0;
    const performed = new Set<string>();
    for (const row of rows) {
      const handler = handlers[row.kind];
      if (!handler) continue;
      const same = `${row.kind}\0${row.payload}`;
      if (!performed.has(same)) {
        try {
          // The effect runs before it is marked done, so a crash in between repeats it: effects are idempotent.
          handler({ id: row.id, kind: row.kind, payload: JSON.parse(row.payload) });
        } catch {
          // It stays queued and a later command retries it; until then only its projection (status.json) is stale.
          continue;
        }
        performed.add(same);
      }
      if (markDone.run(clock(), row.id).changes > 0) done++;
    }
    return done;
  }

  return {
    enqueue: (kind, payload, now) => Number(enqueue.run(kind, JSON.stringify(payload ?? null), now).lastInsertRowid),
    performOwn(emitted) {
      if (emitted.length === 0) return;
      perform(emitted.flatMap((id) => own.all(id) as EffectRow[]));
      const cutoff = new Date(Date.parse(clock()) - ABANDONED_EFFECT_MS).toISOString();
      perform(abandoned.all(cutoff, handled) as EffectRow[]);
    },
    drain: () => perform(pending.all(handled) as EffectRow[]),
  };
}
