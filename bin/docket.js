#!/usr/bin/env node
// Entry point of the `docket` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
// `docket mcp` and `docket door` are their own surfaces; `docket worker …` takes a small client that speaks only to the
// worker's door (no SQLite, no engine, no commander unless it must print help or a usage error), built into one file
// that is required synchronously (dist/bundle/worker.cjs, scripts/bundle.mjs), since a worker's call is a cold
// process whose cost is mostly module loading; every other verb is the full CLI's.
import { createRequire } from "node:module";

const args = process.argv.slice(2);
const own = { mcp: "mcp/main.js", door: "door/main.js" }[args[0]];
const worker = !own && args.find((a) => a !== "--json") === "worker";
const { main } = worker
  ? createRequire(import.meta.url)("../dist/bundle/worker.cjs")
  : await import(`../dist/src/surfaces/${own ?? "cli/main.js"}`);
process.exitCode = await main(own ? args.slice(1) : args);
