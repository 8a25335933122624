#!/usr/bin/env node
// Entry point of the `docket` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
// `docket mcp` and `docket door` are their own surfaces; `docket worker …` takes a small client that speaks only to the
// worker's door (no SQLite, no engine, no commander unless it must print help or a usage error); every other verb is the
// full CLI's.
const args = process.argv.slice(2);
const own = { mcp: "mcp/main.js", door: "door/main.js" }[args[0]];
const worker = args.find((a) => a !== "--json") === "worker";
const { main } = await import(`../dist/src/surfaces/${own ?? (worker ? "cli/worker-fast.js" : "cli/main.js")}`);
process.exitCode = await main(own ? args.slice(1) : args);
