// Measures import circles in src/**/*.ts: the strongly connected components of the relative-import graph (Tarjan).
// Usage: node scripts/import-circles.mjs [file ...] [--runtime] [--list]
// (--runtime skips `import type`; --list prints every circle's modules; files: print the circle each is in)

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve("src");
const args = process.argv.slice(2);
const runtime = args.includes("--runtime");
const list = args.includes("--list");
const focus = args.filter((a) => !a.startsWith("--")).map((a) => relative(SRC, resolve(a)));

const walk = (d) =>
  readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });

const IMPORT = /(import|export)(\s+type)?[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const graph = new Map();
for (const file of walk(SRC)) {
  const edges = new Set();
  for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
    if (runtime && m[2]) continue;
    const spec = m[3] ?? m[4];
    if (!spec.startsWith(".")) continue;
    edges.add(relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, ".ts"));
  }
  graph.set(relative(SRC, file), edges);
}

// Tarjan's algorithm, iterative enough for this size (recursion depth = longest import chain).
let index = 0;
const idx = new Map(),
  low = new Map(),
  stack = [],
  on = new Set(),
  components = [];
function connect(v) {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  on.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    components.push(c);
  }
}
for (const v of graph.keys()) if (!idx.has(v)) connect(v);

const circles = components.filter((c) => c.length > 1).sort((a, b) => b.length - a.length);
console.log(
  `${graph.size} modules, ${circles.length} circles${runtime ? " (runtime imports only)" : ""}: sizes ${circles.map((c) => c.length).join(", ") || "none"}`,
);
for (const f of focus) {
  const c = components.find((x) => x.includes(f)) ?? [f];
  console.log(`circle of ${f}: ${c.length} module${c.length === 1 ? "" : "s"}`);
  if (c.length > 1) for (const m of c.sort()) console.log(`  ${m}`);
}
if (list) for (const c of circles) console.log(`circle of ${c.length}: ${c.sort().join(" ↔ ")}`);
