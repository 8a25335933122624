// What a long-lived door or page remembers of workers' screens (to tell `stuck`) stays the size of its live fleet:
// a worker is remembered once its screen is read, and forgotten once it is settled.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openEngine } from "../../../src/engine/open.js";
import { rememberedScreens } from "../../../src/engine/workers/evidence.js";
import { listWorkers } from "../../../src/engine/workers/view.js";
import { getWorker } from "../../../src/ledger/workers/workers.js";
import { cliGround } from "../../support/cli-workers.js";
import { assertExit, docket } from "../../support/docket-cli.js";
import { waitFor } from "../../support/wait.js";
import { testClock } from "../../support/work-ledger.js";

test("a worker's screen is remembered while it runs and forgotten once it is settled", {
  timeout: 120_000,
}, async (t) => {
  const { repo, home, env } = cliGround(t, { config: { worker: { stuckMinutes: 1 } } });
  const cmd = 'while [ ! -f go ]; do sleep 0.2; done; printf "v1\\n" | docket worker done --outcome completed';
  assertExit(docket({ env, cwd: repo }, "spawn", "--agent", "command", "--cmd", cmd, "--json", "quiet"));

  // Forty seconds on, its other signs are old enough (half of a minute) that a read looks at its screen.
  const later = openEngine({ env, cwd: repo, clock: testClock(new Date(Date.now() + 40_000).toISOString()) });
  t.after(() => later.close());
  await waitFor("w1's window", () => getWorker(later.db, "w1")?.paneId ?? undefined);
  listWorkers(later);
  assert.deepEqual(rememberedScreens(), ["w1"]);

  writeFileSync(join(home, "fleet", "w1", "workspace", "go"), "");
  await waitFor("w1 settled", () => {
    listWorkers(later);
    return ["ready", "ended"].includes(getWorker(later.db, "w1")!.state);
  });
  listWorkers(later);
  assert.deepEqual(rememberedScreens(), [], "a settled worker's screen is forgotten");
});
