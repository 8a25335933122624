// A contained worker's egress: requests through Docket's proxy summed per destination and minute, and the list read
// back for `show`, the card and --json. A host refused for the first time is reported to the caller (one attention line).

import type { EgressDestination } from "../../domain/workers/network-summary.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

/** Requests to one destination within one minute (`minute`: the ISO time cut to minutes). */
export interface EgressTally {
  worker: string;
  generation: number;
  host: string;
  port: number;
  allowed: boolean;
  minute: string;
  requests: number;
  bytesUp: number;
  bytesDown: number;
  firstAt: string;
  lastAt: string;
}

/** Adds one tally; true when it is the first refusal of this host for this worker (the caller adds one notice). */
export function addEgressTally(tx: Tx, t: EgressTally): boolean {
  const refusedBefore =
    !t.allowed &&
    statement(tx.db, "SELECT 1 FROM worker_egress WHERE worker = ? AND host = ? AND allowed = 0 LIMIT 1").get(
      t.worker,
      t.host,
    ) !== undefined;
  statement(
    tx.db,
    `INSERT INTO worker_egress (worker, generation, host, port, allowed, minute, requests, bytes_up, bytes_down, first_at, last_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(worker, host, port, allowed, minute, generation) DO UPDATE SET
       requests = requests + excluded.requests, bytes_up = bytes_up + excluded.bytes_up,
       bytes_down = bytes_down + excluded.bytes_down, last_at = MAX(last_at, excluded.last_at)`,
  ).run(
    t.worker,
    t.generation,
    t.host,
    t.port,
    t.allowed ? 1 : 0,
    t.minute,
    t.requests,
    t.bytesUp,
    t.bytesDown,
    t.firstAt,
    t.lastAt,
  );
  return !t.allowed && !refusedBefore;
}

/** Every destination the worker asked for, most recent first. */
export function listEgress(db: Db, worker: string): EgressDestination[] {
  const rows = statement(
    db,
    `SELECT host, port, allowed, SUM(requests) AS requests, SUM(bytes_up) AS bytes_up, SUM(bytes_down) AS bytes_down,
            MIN(first_at) AS first_at, MAX(last_at) AS last_at
       FROM worker_egress WHERE worker = ? GROUP BY host, port, allowed ORDER BY last_at DESC, host, port`,
  ).all(worker) as {
    host: string;
    port: number;
    allowed: number;
    requests: number;
    bytes_up: number;
    bytes_down: number;
    first_at: string;
    last_at: string;
  }[];
  return rows.map((r) => ({
    host: r.host,
    port: r.port,
    allowed: r.allowed === 1,
    requests: r.requests,
    bytesUp: r.bytes_up,
    bytesDown: r.bytes_down,
    firstAt: r.first_at,
    lastAt: r.last_at,
  }));
}
