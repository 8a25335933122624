// Reads the worker protocol makes outside its commands: a committed call's stored result, and the fence checked before
// a file is written (the same check runs again inside the command).

import { internalError } from "../../domain/errors.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { Worker } from "../../domain/workers/worker.js";
import { checkFence } from "./workers.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

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
