// Launch records: one launches row per worker generation, with its run token's hash and how it exited.
// The exit of a launch is recorded on that generation's row only, so a stale process can never touch the new one.

import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { hashRunToken } from "./workers.js";
import { statement } from "../core/statements.js";

export interface Launch {
  worker: string;
  generation: number;
  startedAt: string;
  exitedAt: string | null;
  exitCode: number | null;
}

export function insertLaunch(tx: Tx, worker: string, generation: number, runToken: string): void {
  statement(tx.db, "INSERT INTO launches (worker, generation, run_token_hash, started_at) VALUES (?, ?, ?, ?)").run(
    worker,
    generation,
    hashRunToken(runToken),
    tx.now,
  );
}

/**
 * Records the exit on (worker, generation) when the run token matches (any token when none is given);
 * false when it does not or it was recorded.
 */
export function recordLaunchExit(
  tx: Tx,
  worker: string,
  generation: number,
  runToken: string | undefined,
  code: number,
): boolean {
  const hash = runToken === undefined ? null : hashRunToken(runToken);
  return (
    statement(
      tx.db,
      "UPDATE launches SET exited_at = ?, exit_code = ? WHERE worker = ? AND generation = ? AND (? IS NULL OR run_token_hash = ?) AND exited_at IS NULL",
    ).run(tx.now, code, worker, generation, hash, hash).changes > 0
  );
}

export function listLaunches(db: Db, worker: string): Launch[] {
  const rows = statement(
    db,
    "SELECT worker, generation, started_at, exited_at, exit_code FROM launches WHERE worker = ? ORDER BY generation",
  ).all(worker) as {
    worker: string;
    generation: number;
    started_at: string;
    exited_at: string | null;
    exit_code: number | null;
  }[];
  return rows.map((r) => ({
    worker: r.worker,
    generation: r.generation,
    startedAt: r.started_at,
    exitedAt: r.exited_at,
    exitCode: r.exit_code,
  }));
}
