// Storage errors met mid-command become named refusals: checked on real errors from the kernel and from SQLite.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { explainFailure } from "../../src/engine/failures.js";
import { internalError, isDocketError } from "../../src/domain/errors.js";
import { tempDir } from "../support/temp.js";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

test("a real ENOSPC (a write to /dev/full), bare or wrapped as internal, becomes disk-full with what to do", async (t) => {
  const home = tempDir(t);
  const enospc = thrown(() => writeFileSync("/dev/full", "x"));
  assert.equal((enospc as NodeJS.ErrnoException).code, "ENOSPC");
  for (const error of [enospc, internalError("store-scan-failed", "cannot write", enospc)]) {
    const e = await explainFailure(error, { DOCKET_HOME: home });
    assert.ok(isDocketError(e) && e.code === "disk-full", String(e));
    assert.equal(e.hint, "free some space, then run the command again");
  }
});

test("SQLite's own 'not a database' becomes ledger-corrupt with quick_check's word; unrelated errors pass through", async (t) => {
  const home = tempDir(t);
  writeFileSync(join(home, "ledger.sqlite"), "garbage ".repeat(1000));
  const notadb = thrown(() => new Database(join(home, "ledger.sqlite")).prepare("SELECT 1 FROM sqlite_master").get());
  assert.equal((notadb as { code: string }).code, "SQLITE_NOTADB");
  const e = await explainFailure(notadb, { DOCKET_HOME: home });
  assert.ok(isDocketError(e) && e.code === "ledger-corrupt");
  assert.match(e.message, /is damaged \(file is not a database\); nothing was changed$/);
  const plain = new Error("something else");
  assert.equal(await explainFailure(plain, { DOCKET_HOME: home }), plain);
  const elsewhere = thrown(() => writeFileSync(join(tempDir(t), "missing", "x"), "x"));
  assert.equal(
    await explainFailure(elsewhere, { DOCKET_HOME: home }),
    elsewhere,
    "ENOENT outside the home is not a home problem",
  );
});
