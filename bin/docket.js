#!/usr/bin/env node
// Entry point of the `docket` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
// `docket mcp` and `docket door` are their own surfaces; `docket worker …` takes a small client that speaks only to the
// worker's door (no SQLite, no engine, no commander unless it must print help or a usage error), built into one file
// (dist/bundle/worker.cjs, scripts/bundle.mjs); every other verb is the full CLI's.
// CommonJS (bin/package.json) because a worker's call is a cold process whose cost is mostly loading: required
// synchronously, the worker's bundle starts no ES-module loader at all, which costs a few ms on Node 20 and 22.
"use strict";

const args = process.argv.slice(2);
const own = { mcp: "mcp/main.js", door: "door/main.js" }[args[0]];
const worker = !own && args.find((a) => a !== "--json") === "worker";
const entry = worker
  ? Promise.resolve(require("../dist/bundle/worker.cjs"))
  : import(`../dist/src/surfaces/${own ?? "cli/main.js"}`);
entry
  .then(({ main }) => main(own ? args.slice(1) : args))
  .then((code) => {
    process.exitCode = code;
  });
