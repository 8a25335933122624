// A human's `choose` in its own process, for crash tests: opens the engine, prints "ready", waits for a line on stdin,
// then runs one choose. Its connection has a temporary trigger that, after the first not-chosen decision row is
// written (inside the choose transaction), prints "mid" and blocks, so a test can SIGKILL it mid-transaction.
// Usage: node choose-child.js <ref> (DOCKET_HOME from the environment, cwd = the project).

import { writeSync } from "node:fs";
import { openEngine } from "../../src/engine/open.js";
import { chooseCandidate } from "../../src/engine/groups/choose.js";

const [ref] = process.argv.slice(2);
const ctx = openEngine({ env: process.env, cwd: process.cwd() });
const hold = new Int32Array(new SharedArrayBuffer(4));
ctx.db.function("crash_point", () => {
  writeSync(1, "mid\n");
  Atomics.wait(hold, 0, 0, 120_000); // killed here, inside the open transaction
  return 0;
});
ctx.db.exec(
  "CREATE TEMP TRIGGER crash_mid AFTER INSERT ON decisions WHEN NEW.verb = 'not-chosen' BEGIN SELECT crash_point(); END",
);
process.stdout.write("ready\n");
process.stdin.once("data", () => {
  const result = chooseCandidate(ctx, { ref: ref! });
  ctx.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
});
