// The house rule, enforced: imports point down only (STYLE §1). domain imports nothing else and no node:*;
// ledger/files/substrate import only domain (and themselves); surfaces never reach past the engine, and sibling
// surfaces (cli, pi, web, mcp) never import each other: what they share lives in surfaces/shared.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";

const SRC = resolve(dirname(new URL(import.meta.url).pathname), "../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith(".js") ? [p] : [];
  });
}

const layerOf = (path: string): string => relative(SRC, path).split("/")[0]!;
/** `surfaces/pi/parent/role.js` → `pi`; outside surfaces, undefined. */
const surfaceOf = (path: string): string | undefined => {
  const [layer, surface] = relative(SRC, path).split("/");
  return layer === "surfaces" ? surface : undefined;
};

const ALLOWED: Record<string, string[]> = {
  domain: ["domain"],
  ledger: ["domain", "ledger"],
  files: ["domain", "files"],
  substrate: ["domain", "substrate"],
  engine: ["domain", "ledger", "files", "substrate", "engine"],
  surfaces: ["domain", "engine", "surfaces"],
};

test("every import points down the house: domain ← ledger/files/substrate ← engine ← surfaces, siblings only through shared", () => {
  const problems: string[] = [];
  for (const file of files(SRC)) {
    const layer = layerOf(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
      const spec = m[1] ?? m[2]!;
      if (layer === "domain" && !spec.startsWith(".")) problems.push(`${relative(SRC, file)} imports ${spec} (domain is pure)`);
      if (layer === "surfaces" && /^(better-sqlite3|node:child_process)$/.test(spec)) problems.push(`${relative(SRC, file)} imports ${spec}`);
      if (!spec.startsWith(".")) continue;
      const target = layerOf(resolve(dirname(file), spec));
      if (!ALLOWED[layer]?.includes(target)) problems.push(`${relative(SRC, file)} (${layer}) imports ${spec} (${target})`);
      const from = surfaceOf(file);
      const to = surfaceOf(resolve(dirname(file), spec));
      if (from !== undefined && to !== undefined && from !== to && to !== "shared") problems.push(`${relative(SRC, file)} (${from}) imports ${spec} (surface ${to})`);
    }
  }
  assert.deepEqual(problems, []);
});

test("no source file is over 500 lines", () => {
  const big = files(SRC)
    .map((f) => ({ f: relative(SRC, f), n: readFileSync(f.replace("/dist/src/", "/src/").replace(/\.js$/, ".ts"), "utf8").split("\n").length }))
    .filter((x) => x.n > 500);
  assert.deepEqual(big, []);
});
