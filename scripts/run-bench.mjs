// Runs every compiled benchmark under dist/bench one after another; each prints its own figures.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const root = "dist/bench";
const filters = process.argv.slice(2);
const files = readdirSync(root)
  .filter((n) => n.endsWith(".bench.js") && (filters.length === 0 || filters.some((f) => n.includes(f))))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, [join(root, f)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
