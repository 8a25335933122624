// A read snapshot: its reads see one moment of the ledger while another connection commits, it nests, and no command
// may start inside it. Real SQLite files, two connections on one ledger.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openLedger } from "../../../src/ledger/core/open.js";
import { createCommandRunner } from "../../../src/ledger/core/runner.js";
import { readSnapshot } from "../../../src/ledger/core/snapshot.js";
import { tempDir } from "../../support/temp.js";

function twoConnections(t: { after(fn: () => void): void }) {
  const path = join(tempDir(t), "ledger.sqlite");
  const reader = openLedger(path);
  const writer = openLedger(path);
  t.after(() => {
    reader.close();
    writer.close();
  });
  return { reader, writer };
}

const counter = (db: ReturnType<typeof openLedger>) =>
  (db.prepare("SELECT value FROM counters WHERE name = 'x'").get() as { value: number } | undefined)?.value ?? null;

test("every read inside a snapshot sees the ledger as it was when the snapshot began", (t) => {
  const { reader, writer } = twoConnections(t);
  writer.prepare("INSERT INTO counters (name, value) VALUES ('x', 1)").run();
  const seen = readSnapshot(reader, () => {
    const first = counter(reader);
    writer.prepare("UPDATE counters SET value = 2 WHERE name = 'x'").run(); // another process commits meanwhile
    return [first, counter(reader), readSnapshot(reader, () => counter(reader))];
  });
  assert.deepEqual(seen, [1, 1, 1]);
  assert.equal(reader.inTransaction, false, "the snapshot ended");
  assert.equal(counter(reader), 2, "after it, the newest commit");
});

test("a command started inside a snapshot is refused and writes nothing; the snapshot still ends", (t) => {
  const { reader } = twoConnections(t);
  const runner = createCommandRunner(reader);
  const write = () => reader.prepare("INSERT INTO counters (name, value) VALUES ('x', 7)").run();
  assert.throws(
    () => readSnapshot(reader, () => runner.run("demo", {}, write)),
    /ledger command demo started inside a read snapshot/,
  );
  assert.throws(
    () => readSnapshot(reader, () => runner.runAll([{ command: "batch", request: {}, fn: write }])),
    /ledger command batch started inside a read snapshot/,
  );
  assert.equal(reader.inTransaction, false);
  assert.equal(counter(reader), null);
  runner.run("demo", {}, write);
  assert.equal(counter(reader), 7, "outside a snapshot the same command runs");
});
