// Forgets a worker's keys of its periodic calls (heartbeats, turns, touches) once no retry can still carry them: those
// calls come every few seconds for as long as the worker lives, and their keys only guard the client's short retry.

import type { Tx } from "./runner.js";
import { statement } from "./statements.js";

/**
 * Deletes the keys under `prefix` (e.g. `heartbeat/w3/`, which idempotencyKey ends with the worker's segment) created
 * before `before`. A range on the primary key: the worker's own keys only, never a scan of the table.
 */
export function pruneKeysBefore(tx: Tx, prefix: string, before: string): number {
  if (!prefix.endsWith("/")) throw new Error(`a key prefix ends with "/": ${prefix}`);
  const end = `${prefix.slice(0, -1)}0`; // "/" + 1: every key that starts with the prefix sorts below it
  return statement(tx.db, "DELETE FROM idempotency WHERE key >= ? AND key < ? AND created_at < ?").run(
    prefix,
    end,
    before,
  ).changes;
}
