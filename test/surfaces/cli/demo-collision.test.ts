// scripts/demo-collision.sh runs as a newcomer would run it: two command workers collide on one file in real tmux
// (a private server the script kills), the card offers Combine, and the combined version lands in the scratch repo.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cliEnv, DOCKET_BIN } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";
import { waitFor } from "../../support/wait.js";

const SCRIPT = join(dirname(dirname(DOCKET_BIN)), "scripts", "demo-collision.sh");

test("the collision demo walks the warning, Combine's dry merge, the combined version's promotion and the journal", {
  timeout: 180_000,
}, async (t) => {
  const dir = tempDir(t);
  const r = spawnSync("sh", [SCRIPT], {
    env: cliEnv({ HOME: dir, TMPDIR: dir }),
    cwd: dir,
    encoding: "utf8",
    timeout: 170_000,
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  for (const line of [
    "⚠ adjacent w2: src/limits.ts",
    "⚠ Combine with w2 · Make the limits per tenant · merges clean, 1 file",
    "combine w2",
    "combined:w1+w2:1 · 1 file",
    "promote combined:w1+w2:1",
    "promoted · from w1 + w2 · combined:w1+w2:1",
  ]) {
    assert.ok(r.stdout.includes(line), `the demo shows ${line}:\n${r.stdout}`);
  }
  const scratch = readdirSync(dir).find((n) => n.startsWith("docket-collision-"))!;
  const repo = join(dir, scratch, "repo");
  assert.match(
    readFileSync(join(repo, "src/limits.ts"), "utf8"),
    /perMinute: 120,\n {2}burst: 10,\n {2}perTenant: true,/,
  );
  assert.ok(existsSync(join(dir, scratch, "home", "ledger.sqlite")));
  // The script kills its tmux server on exit; the workers' processes end with it.
  await waitFor(
    "every demo process to end",
    () => !execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).includes(join(dir, scratch)),
    15_000,
  );
});
