// Claim: the tree is formatted at 120 columns and passes the linter (Biome, configured in biome.json): a line that is
// too long, a missing semicolon or a recommended rule broken fails here. `npm run format` puts the formatting right.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "../..");

test("biome ci: every source, test, bench and script is formatted and passes the linter", () => {
  const biome = join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome");
  const r = spawnSync(process.execPath, [biome, "ci", "--colors=off", "--max-diagnostics=20", "."], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(
    r.status,
    0,
    `${r.stdout}\n${r.stderr}\nrun \`npm run format\` for the formatting; fix the lint by hand`,
  );
});
