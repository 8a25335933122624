// Ledger rows the worker protocol writes besides the worker row: questions, the progress board, stored results.
// Every function runs inside the caller's command; none decides anything on its own (DESIGN §5).

import { internalError } from "../../domain/errors.js";
import { formatId } from "../../domain/ids.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { Worker } from "../../domain/workers/worker.js";
import { checkFence } from "./workers.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export interface NewQuestion {
  worker: string;
  generation: number;
  text: string;
  options: string[];
  recommend?: string;
  risk?: string;
  /** A consult (docket_consult): asked of the parent agent when the human opted in, else of the human. */
  consult?: { audience: "human" | "parent-agent"; context?: string };
}

export function insertQuestion(tx: Tx, q: NewQuestion): string {
  const id = formatId("question", tx.next("question"));
  statement(tx.db, 
    `INSERT INTO questions (id, worker, generation, text, options, recommend, risk, state, created_at, consult, audience, context)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?)`,
  ).run(id, q.worker, q.generation, q.text, JSON.stringify(q.options), q.recommend ?? null, q.risk ?? null, tx.now,
    q.consult ? 1 : 0, q.consult?.audience ?? "human", q.consult?.context ?? null);
  return id;
}

/** Open questions are settled by a later done: the worker moved on without an answer. */
export function dropOpenQuestions(tx: Tx, worker: string): number {
  return statement(tx.db, "UPDATE questions SET state = 'dropped', answered_at = ? WHERE worker = ? AND state = 'open'").run(tx.now, worker).changes;
}

export function openQuestions(db: Db, worker: string): { id: string; text: string }[] {
  return statement(db, "SELECT id, text FROM questions WHERE worker = ? AND state = 'open' ORDER BY created_at, id").all(worker) as { id: string; text: string }[];
}

/** The stored result of an earlier command under `key`, if that command committed. */
export function storedResult<R>(db: Db, key: string): R | undefined {
  const row = statement(db, "SELECT result FROM idempotency WHERE key = ?").get(key) as { result: string } | undefined;
  return row ? (JSON.parse(row.result) as R) : undefined;
}

/**
 * The fence checked outside any transaction (a read): lets a replaced process be refused before it writes a file,
 * without taking the write lock. The same check runs again inside the command that acts on it.
 */
export function readFence(db: Db, who: WorkerIdentity): Worker {
  const readOnly: Tx = {
    db,
    now: "",
    next: () => {
      throw internalError("read-only-fence", "the fence pre-check cannot allocate ids");
    },
    emit: () => {
      throw internalError("read-only-fence", "the fence pre-check cannot queue effects");
    },
  };
  return checkFence(readOnly, who);
}
